import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { companiesCollection, companyRef } from "./companies";
import { parseStoredOrNull, requiredMap, stringList, timestamp } from "./stored";

/** `companies/{companyId}/kpiRollups/latest`: API-owned, written by the rollup job only. */
const rollupRef = (companyId: string) =>
  companyRef(companyId).collection("kpiRollups").doc("latest");

const rollupShape = {
  generatedAt: timestamp,
  months: stringList,
  // The areas are written by us as the response shapes them; the endpoint validates them.
  areas: requiredMap,
};

export interface StoredRollup {
  generatedAt: Date;
  months: string[];
  areas: Record<string, unknown>;
}

/** What is stored of a computed rollup: its months and its areas, as the response shapes them. */
export interface RollupToStore {
  months: string[];
  areas: object;
}

export async function saveRollup(
  companyId: string,
  rollup: RollupToStore,
  generatedAt: Date,
): Promise<void> {
  await rollupRef(companyId).set({
    generatedAt: Timestamp.fromDate(generatedAt),
    months: rollup.months,
    areas: rollup.areas,
  });
}

/** The latest rollup, or null when none was generated (or the stored one is unusable). */
export async function findRollup(companyId: string): Promise<StoredRollup | null> {
  const snap = await rollupRef(companyId).get();
  if (!snap.exists) return null;
  const doc = parseStoredOrNull(rollupShape, snap.ref.path, snap.data());
  if (!doc?.generatedAt) return null;
  return { generatedAt: doc.generatedAt.toDate(), months: doc.months, areas: doc.areas };
}

/**
 * Claims the company's on-demand refresh: true, and the claim recorded, when none was claimed
 * in the last `intervalMs`; otherwise false with the time the next one may start. One
 * transaction, so two refreshes asked at once cannot both pass.
 */
export async function claimRefresh(
  companyId: string,
  intervalMs: number,
  now = new Date(),
): Promise<{ claimed: true } | { claimed: false; nextAt: Date }> {
  const ref = companyRef(companyId).collection("kpiRollups").doc("refresh");
  return firestore().runTransaction(async (tx) => {
    const last: unknown = (await tx.get(ref)).get("claimedAt");
    const lastMs = last instanceof Timestamp ? last.toMillis() : Number.NEGATIVE_INFINITY;
    if (now.getTime() - lastMs < intervalMs)
      return { claimed: false as const, nextAt: new Date(lastMs + intervalMs) };
    tx.set(ref, { claimedAt: Timestamp.fromDate(now) });
    return { claimed: true as const };
  });
}

/**
 * Companies the daily job rolls up: the company API switched on, on the enterprise plan (the only
 * one it serves).
 */
export async function companiesWithCompanyApi(): Promise<string[]> {
  const snap = await companiesCollection()
    .where("apiAccess.companyApi", "==", true)
    .select("plan")
    .get();
  return snap.docs.filter((d) => d.get("plan") === "enterprise").map((d) => d.id);
}
