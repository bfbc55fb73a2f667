import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection, type AuditEntry } from "./auditLogs";
import { companyRef } from "./companies";
import type { AggregateStats } from "./aggregates";
import { parseStored } from "./stored";
import { nullableNumber, oneOf, timestamp, valueWhere } from "./storedFields";

/**
 * `companies/{companyId}/workedHours/{docId}` (docs/firestore-data.md). App-recorded documents
 * have any id and are never written here; the API owns exactly `api_YYYY-MM`, one per month.
 */
const workedHoursOf = (companyId: string) => companyRef(companyId).collection("workedHours");

const workedHoursShape = {
  /**
   * Only a real `YYYY-MM` key is a month: `2025-05-15` sorts inside 2025's range but is no
   * month, so it is read as absent (and logged), exactly as the per-month aggregations (`==`) miss it.
   */
  month: valueWhere((v): v is string => typeof v === "string" && /^\d{4}-(0[1-9]|1[0-2])$/.test(v), null),
  hours: nullableNumber,
  source: oneOf(["app", "api"], "app"),
  updatedAt: timestamp,
};

export interface StoredHours {
  month: string;
  hours: number;
  source: "app" | "api";
  updatedAt: Timestamp | null;
}

/** Every record of the months from `first` to `last` (`YYYY-MM`, inclusive); unreadable ones left out (logged). */
export async function hoursBetween(companyId: string, first: string, last: string, stats?: AggregateStats): Promise<StoredHours[]> {
  const snap = await workedHoursOf(companyId).where("month", ">=", first).where("month", "<=", last).get();
  if (stats) {
    stats.queries++;
    stats.documentsRead += snap.size;
    if (stats.billedReads !== undefined) stats.billedReads += Math.max(1, snap.size);
  }
  return snap.docs.flatMap((doc) => readHoursRecord(doc.ref.path, doc.data()) ?? []);
}

/** One stored record, or null when it has no real month or no numeric hours (the field is logged). */
export function readHoursRecord(path: string, data: unknown): StoredHours | null {
  const record = parseStored(workedHoursShape, path, data);
  return record.month !== null && record.hours !== null ? { ...record, month: record.month, hours: record.hours } : null;
}

/**
 * Sets the month's API value, replacing the previous one; its privileged audit entry commits
 * in the same transaction. Returns the stored record and whether the month had one before.
 */
export async function setApiHours(
  companyId: string,
  month: string,
  hours: number,
  audit: Omit<AuditEntry, "at" | "expireAt" | "class" | "action" | "target">,
): Promise<{ record: StoredHours; replaced: boolean }> {
  const ref = workedHoursOf(companyId).doc(`api_${month}`);
  return firestore().runTransaction(async (tx) => {
    const replaced = (await tx.get(ref)).exists;
    const updatedAt = Timestamp.now();
    const record: StoredHours = { month, hours, source: "api", updatedAt };
    tx.set(ref, record);
    tx.create(
      auditLogsCollection(companyId).doc(),
      auditEntry({ ...audit, class: "privileged", action: "worked_hours.set", target: { type: "worked_hours", id: month } }, updatedAt),
    );
    return { record, replaced };
  });
}
