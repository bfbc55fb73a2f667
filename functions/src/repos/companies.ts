import { firestore } from "../config/firebase";
import { z } from "../http/zod";
import { parseStored, rateLimitOverride } from "./stored";

/** `companies/{companyId}`: the fields the APIs act on. */
export const companyDoc = z.object({
  name: z.string().nullish(),
  plan: z.string().nullish(),
  apiAccess: z
    .object({ findingsExport: z.boolean().nullish(), companyApi: z.boolean().nullish() })
    .nullish(),
  seatCapacity: z.number().nullish(),
  seatsUsed: z.number().nullish(),
  rateLimits: rateLimitOverride,
});
export type CompanyDoc = z.output<typeof companyDoc>;

export const companyRef = (companyId: string) => firestore().collection("companies").doc(companyId);

export async function findCompany(companyId: string): Promise<CompanyDoc | null> {
  const snap = await companyRef(companyId).get();
  return snap.exists ? parseStored(companyDoc, snap.ref.path, snap.data()) : null;
}
