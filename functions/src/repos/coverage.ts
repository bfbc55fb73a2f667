import { companyRef } from "./companies";
import { nullableNumber, parseStored, stringList, type Stored } from "./stored";

/**
 * `companies/{companyId}/healthSafetyCoverage/{year}`: the inputs of the ESRS S1-14 coverage
 * datapoints, entered in the app. Any field may be missing or of the wrong type (read as absent).
 */
export const coverageShape = {
  headcount: nullableNumber,
  coveredHeadcount: nullableNumber,
  auditedHeadcount: nullableNumber,
  certificationStandards: stringList,
};
export type CoverageDoc = Stored<typeof coverageShape>;

/** The year's coverage, or null when none was entered. */
export async function findCoverage(companyId: string, year: number): Promise<CoverageDoc | null> {
  const snap = await companyRef(companyId)
    .collection("healthSafetyCoverage")
    .doc(String(year))
    .get();
  return snap.exists ? parseStored(coverageShape, snap.ref.path, snap.data()) : null;
}
