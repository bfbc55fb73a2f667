import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { stageChangeEntry, type AuditActor } from "./auditLogs";
import { companyRef } from "./companies";
import {
  nullableInteger,
  parseStoredOrNull,
  requiredMap,
  requiredString,
  storedMap,
  timestamp,
} from "./stored";

/**
 * `companies/{companyId}/esrsReports/{docId}` (docs/firestore-data.md): API-owned frozen ESRS
 * S1-14 reports. `{year}` is the current frozen version of a year; freezing again moves it to
 * `{year}-v{version}` and writes the new one under `{year}`, so no version is ever lost or changed.
 */
const reportsOf = (companyId: string) => companyRef(companyId).collection("esrsReports");

const frozenShape = {
  year: nullableInteger,
  version: nullableInteger,
  frozenAt: timestamp,
  frozenBy: storedMap({ type: requiredString, id: requiredString, name: requiredString }),
  // Written by us as the service shapes it (the rows, the inputs behind them); the service reads it
  // back.
  content: requiredMap,
};

export interface FrozenReportDoc {
  year: number;
  version: number;
  frozenAt: Date;
  frozenBy: AuditActor;
  content: Record<string, unknown>;
}

/** The current frozen version of a year, or null (none, or an unusable document: logged). */
export async function findFrozenReport(
  companyId: string,
  year: number,
): Promise<FrozenReportDoc | null> {
  const snap = await reportsOf(companyId).doc(String(year)).get();
  if (!snap.exists) return null;
  const doc = parseStoredOrNull(frozenShape, snap.ref.path, snap.data());
  if (!doc || doc.version === null || !doc.frozenAt || !doc.frozenBy) return null;
  return {
    year,
    version: doc.version,
    frozenAt: doc.frozenAt.toDate(),
    frozenBy: doc.frozenBy as AuditActor,
    content: doc.content,
  };
}

/**
 * Freezes a year: the earlier version (if any) is kept as `{year}-v{n}`, the new one becomes
 * `{year}` with version n + 1, and the privileged audit entry `esrs_report.frozen` commits in the
 * same transaction. `content` must be plain Firestore data (no `undefined`).
 */
export async function saveFrozenReport(
  companyId: string,
  year: number,
  content: Record<string, unknown>,
  actor: AuditActor,
): Promise<{ version: number; frozenAt: Date }> {
  const current = reportsOf(companyId).doc(String(year));
  return firestore().runTransaction(async (tx) => {
    const snap = await tx.get(current);
    const previous = snap.exists ? (snap.get("version") as unknown) : null;
    const version = typeof previous === "number" ? previous + 1 : 1;
    if (snap.exists)
      tx.create(reportsOf(companyId).doc(`${year}-v${version - 1}`), snap.data() ?? {});
    const frozenAt = Timestamp.now();
    tx.set(current, { year, version, frozenAt, frozenBy: actor, content });
    stageChangeEntry(
      tx,
      companyId,
      actor,
      { action: "esrs_report.frozen", target: { type: "esrs_report", id: `${year}-v${version}` } },
      frozenAt,
    );
    return { version, frozenAt: frozenAt.toDate() };
  });
}
