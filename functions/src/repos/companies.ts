import { firestore } from "../config/firebase";
import { z } from "zod";
import { freeForm, nullableNumber, nullableString, parseStored, rateLimitOverride, storedMap, type Stored } from "./stored";

/** `companies/{companyId}`: the fields the APIs act on. */
export const companyShape = {
  name: nullableString,
  plan: nullableString,
  apiAccess: storedMap({ findingsExport: z.boolean().nullish(), companyApi: z.boolean().nullish() }),
  seatCapacity: nullableNumber,
  seatsUsed: nullableNumber,
  rateLimits: rateLimitOverride,
  /** IdP role value → app role, set by the operator (see services/roles.ts). */
  provisioningRoleMap: freeForm,
};
export type CompanyDoc = Stored<typeof companyShape>;

export const companiesCollection = () => firestore().collection("companies");
export const companyRef = (companyId: string) => companiesCollection().doc(companyId);

export async function findCompany(companyId: string): Promise<CompanyDoc | null> {
  const snap = await companyRef(companyId).get();
  return snap.exists ? parseStored(companyShape, snap.ref.path, snap.data()) : null;
}
