import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection, type AuditEntry } from "./auditLogs";
import { companyRef } from "./companies";
import { nullableNumber, oneOf, parseStored, timestamp, valueWhere } from "./stored";

/**
 * `companies/{companyId}/workedHours/{docId}` (docs/firestore-data.md). App-recorded documents
 * have any id and are never written here; the API owns exactly `api_YYYY-MM` (the whole own
 * workforce) and `api_YYYY-MM_employees` / `api_YYYY-MM_non_employees` (one group), per month.
 */
const workedHoursOf = (companyId: string) => companyRef(companyId).collection("workedHours");

/** The own workforce's two groups (ESRS S1 ¶88: employees and non-employees). */
export const WORKER_CATEGORIES = ["employees", "non_employees"] as const;
export type WorkerCategory = (typeof WORKER_CATEGORIES)[number];

const workedHoursShape = {
  /**
   * Only a real `YYYY-MM` key is a month: `2025-05-15` sorts inside 2025's range but is no month,
   * so it is read as absent (and logged), exactly as the per-month aggregations (`==`) miss it.
   */
  month: valueWhere(
    (v): v is string => typeof v === "string" && /^\d{4}-(0[1-9]|1[0-2])$/.test(v),
    null,
  ),
  hours: nullableNumber,
  source: oneOf(["app", "api"], "app"),
  /**
   * Absent (or not one of the two): hours of the whole own workforce, or of a part not attributed
   * to either group.
   */
  workerCategory: oneOf(WORKER_CATEGORIES, null),
  updatedAt: timestamp,
};

export interface StoredHours {
  month: string;
  hours: number;
  source: "app" | "api";
  workerCategory: WorkerCategory | null;
  updatedAt: Timestamp | null;
}

/**
 * Every record of the months from `first` to `last` (`YYYY-MM`, inclusive); unreadable ones left
 * out (logged).
 */
export async function hoursBetween(
  companyId: string,
  first: string,
  last: string,
): Promise<StoredHours[]> {
  const snap = await workedHoursOf(companyId)
    .where("month", ">=", first)
    .where("month", "<=", last)
    .get();
  return snap.docs.flatMap((doc) => readHoursRecord(doc.ref.path, doc.data()) ?? []);
}

/**
 * One stored record, or null when it has no real month or no numeric hours (the field is logged).
 */
export function readHoursRecord(path: string, data: unknown): StoredHours | null {
  const record = parseStored(workedHoursShape, path, data);
  return record.month !== null && record.hours !== null
    ? { ...record, month: record.month, hours: record.hours }
    : null;
}

/**
 * The month already holds API hours of the other kind (`stored`: those of the whole own workforce,
 * or the worker categories listed) with hours above 0: both would be summed, counting the hours
 * twice.
 */
export class OtherHoursKindError extends Error {
  constructor(
    readonly month: string,
    readonly stored: "whole" | WorkerCategory[],
  ) {
    super("the month holds API hours of the other kind");
    this.name = "OtherHoursKindError";
  }
}

/**
 * Sets the month's API value (of one worker category, or of the whole own workforce: `null`),
 * replacing the previous one; its privileged audit entry commits in the same transaction. Returns
 * the stored record and whether the month had one before. Ids: `api_YYYY-MM` for the whole own
 * workforce, `api_YYYY-MM_employees` and `api_YYYY-MM_non_employees` per group.
 */
export async function setApiHours(
  companyId: string,
  month: string,
  hours: number,
  workerCategory: WorkerCategory | null,
  audit: Omit<AuditEntry, "at" | "expireAt" | "class" | "action" | "target">,
): Promise<{ record: StoredHours; replaced: boolean }> {
  const id = workerCategory ? `${month}_${workerCategory}` : month;
  const ref = workedHoursOf(companyId).doc(`api_${id}`);
  const others = (workerCategory ? [null] : WORKER_CATEGORIES).map((category) => ({
    category,
    ref: workedHoursOf(companyId).doc(`api_${month}${category ? `_${category}` : ""}`),
  }));
  return firestore().runTransaction(async (tx) => {
    const [own, ...other] = await tx.getAll(ref, ...others.map((o) => o.ref));
    // A value of 0 counts nothing: setting the stored kind to 0 is how a caller switches kinds.
    const held = others.filter(
      (_, i) =>
        other[i].exists && (readHoursRecord(other[i].ref.path, other[i].data())?.hours ?? 0) > 0,
    );
    if (held.length)
      throw new OtherHoursKindError(
        month,
        workerCategory ? "whole" : held.map((o) => o.category as WorkerCategory),
      );
    const replaced = own.exists;
    const updatedAt = Timestamp.now();
    const record: StoredHours = { month, hours, source: "api", workerCategory, updatedAt };
    // Written only when given: a whole-workforce document stays as it was before categories
    // existed.
    tx.set(ref, {
      month,
      hours,
      source: "api",
      ...(workerCategory ? { workerCategory } : {}),
      updatedAt,
    });
    tx.create(
      auditLogsCollection(companyId).doc(),
      auditEntry(
        {
          ...audit,
          class: "privileged",
          action: "worked_hours.set",
          target: {
            type: "worked_hours",
            id: workerCategory ? `${month}/${workerCategory}` : month,
          },
        },
        updatedAt,
      ),
    );
    return { record, replaced };
  });
}
