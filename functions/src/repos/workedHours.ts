import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { z } from "zod";
import { auditEntry, auditLogsCollection, type AuditEntry } from "./auditLogs";
import { companyRef } from "./companies";
import { nullableNumber, nullableString, parseStored, timestamp } from "./stored";

/**
 * `companies/{companyId}/workedHours/{docId}` (docs/firestore-data.md). App-recorded documents
 * have any id and are never written here; the API owns exactly `api_YYYY-MM`, one per month.
 */
const workedHoursOf = (companyId: string) => companyRef(companyId).collection("workedHours");

const workedHoursShape = {
  month: nullableString,
  hours: nullableNumber,
  source: z.enum(["app", "api"]).nullish().transform((v) => v ?? "app"),
  updatedAt: timestamp,
};

export interface StoredHours {
  month: string;
  hours: number;
  source: "app" | "api";
  updatedAt: Timestamp | null;
}

/** Every record of the months from `first` to `last` (`YYYY-MM`, inclusive); unreadable ones left out (logged). */
export async function hoursBetween(companyId: string, first: string, last: string): Promise<StoredHours[]> {
  const snap = await workedHoursOf(companyId).where("month", ">=", first).where("month", "<=", last).get();
  return snap.docs.flatMap((doc) => {
    const record = parseStored(workedHoursShape, doc.ref.path, doc.data());
    return record.month !== null && record.hours !== null ? [{ ...record, month: record.month, hours: record.hours }] : [];
  });
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
