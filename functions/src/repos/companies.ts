import { firestore } from "../config/firebase";
import { z } from "zod";
import { DEFAULT_REPORTING, isTimeZone, type ReportingSettings } from "../lib/period";
import { orWhenInvalid, parseStored, storedMap, type Stored } from "./stored";
import { freeForm, nullableNumber, nullableString, rateLimitOverride } from "./storedFields";
import { readDoc } from "./readBatch";

export const ATTRIBUTE_SOURCES = ["app", "identityProvider"] as const;
export type AttributeSource = (typeof ATTRIBUTE_SOURCES)[number];
const attributeSource = orWhenInvalid(z.enum(ATTRIBUTE_SOURCES).nullish().transform((v): AttributeSource => v ?? "app"), "app");

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
  /**
   * The company's e-mail domains for provisioning; null: any domain. A list that cannot be read
   * refuses every address rather than opening all domains.
   */
  provisioningDomains: orWhenInvalid(z.array(z.string()).nullish().transform((v) => v?.map((d) => d.toLowerCase()) ?? null), []),
  /** Who owns the role and the department of provisioned users (docs/firestore-data.md); anything else reads as `app`. */
  provisioningRolesSource: attributeSource,
  provisioningDepartmentSource: attributeSource,
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
  /** ESRS datapoint id → why it is not disclosed (docs/firestore-data.md); interpreted by services/esrs. */
  esrsOmissions: freeForm,
};
export type CompanyDoc = Stored<typeof companyShape>;

export const companiesCollection = () => firestore().collection("companies");
export const companyRef = (companyId: string) => companiesCollection().doc(companyId);

export async function findCompany(companyId: string): Promise<CompanyDoc | null> {
  const snap = await readDoc(companyRef(companyId));
  return snap.exists ? parseStored(companyShape, snap.ref.path, snap.data()) : null;
}

/** The company's ESRS settings in one read: the reporting period's and the datapoints marked as not disclosed (as stored). */
export async function findEsrsSettings(companyId: string): Promise<{ reporting: ReportingSettings; omissions: Record<string, unknown> }> {
  const company = await findCompany(companyId);
  return company
    ? { reporting: { timeZone: company.reportingTimeZone, firstMonth: company.financialYearStartMonth }, omissions: company.esrsOmissions }
    : { reporting: DEFAULT_REPORTING, omissions: {} };
}

/** The company's reporting period settings; the defaults (UTC, January) when it or they are absent. */
export async function findReportingSettings(companyId: string): Promise<ReportingSettings> {
  const company = await findCompany(companyId);
  return company ? { timeZone: company.reportingTimeZone, firstMonth: company.financialYearStartMonth } : DEFAULT_REPORTING;
}
