import { Timestamp } from "firebase-admin/firestore";
import { auditLogsCollection } from "./auditLogs";

/**
 * How many requests a key made in a time range, counted from the company's audit trail: every
 * admitted request leaves exactly one `api.request` entry, committed with its rate-limit count
 * (docs/firestore-data.md, "Audit trail"), whose actor id is the key's prefix. A count
 * aggregation reads one index entry per 1,000 requests, never the entries themselves.
 */
export async function countKeyRequests(
  companyId: string,
  prefix: string,
  fromMs: number,
  toMs: number,
): Promise<number> {
  const snap = await auditLogsCollection(companyId)
    .where("action", "==", "api.request")
    .where("actor.id", "==", prefix)
    .where("at", ">=", Timestamp.fromMillis(fromMs))
    .where("at", "<", Timestamp.fromMillis(toMs))
    .count()
    .get();
  return snap.data().count;
}
