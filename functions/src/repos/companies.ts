import { firestore } from "../config/firebase";
import { z } from "zod";
import { DEFAULT_REPORTING, isTimeZone, type ReportingSettings } from "../lib/period";
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
  /** ESRS reporting period (lib/period.ts): an IANA zone and the financial year's first month; invalid reads as the default. */
  reportingTimeZone: z
    .string()
    .refine(isTimeZone)
    .nullish()
    .transform((v) => v ?? DEFAULT_REPORTING.timeZone),
  financialYearStartMonth: z
    .number()
    .int()
    .min(1)
    .max(12)
    .nullish()
    .transform((v) => v ?? DEFAULT_REPORTING.firstMonth),
};
export type CompanyDoc = Stored<typeof companyShape>;

export const companiesCollection = () => firestore().collection("companies");
export const companyRef = (companyId: string) => companiesCollection().doc(companyId);

export async function findCompany(companyId: string): Promise<CompanyDoc | null> {
  const snap = await companyRef(companyId).get();
  return snap.exists ? parseStored(companyShape, snap.ref.path, snap.data()) : null;
}

/** The company's reporting period settings; the defaults (UTC, January) when it or they are absent. */
export async function findReportingSettings(companyId: string): Promise<ReportingSettings> {
  const company = await findCompany(companyId);
  return company ? { timeZone: company.reportingTimeZone, firstMonth: company.financialYearStartMonth } : DEFAULT_REPORTING;
}
