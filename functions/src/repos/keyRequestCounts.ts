import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { storedUsage } from "./apiKeyUsage";
import { shardRef } from "./apiKeys";
import { auditLogsCollection } from "./auditLogs";

/**
 * The day window's count of each key's rate-limit counter in the window `dayIndex`, summed over
 * the key's `shards` (the daily quota's own figure, as the limiter counts it): every key in one
 * `getAll`, however many keys. A counter last written in another window counts 0.
 */
export async function dayCounts(
  keys: ReadonlyArray<{ hash: string; shards: number }>,
  dayIndex: number,
): Promise<number[]> {
  const refs = keys.flatMap((k) => Array.from({ length: k.shards }, (_, i) => shardRef(k.hash, i)));
  if (!refs.length) return [];
  const counts = (await firestore().getAll(...refs)).map((snap) => {
    const usage = storedUsage(snap);
    return usage?.dayWindow === dayIndex ? usage.dayCount : 0;
  });
  let at = 0;
  return keys.map((k) => counts.slice(at, (at += k.shards)).reduce((a, b) => a + b, 0));
}

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
