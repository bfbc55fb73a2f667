import type { DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { DEFAULT_REPORTING, isTimeZone, type ReportingSettings } from "../lib/period";
import { fieldAt, misfit } from "./fieldPath";
import {
  flag,
  freeForm,
  hiddenFlag,
  isMap,
  nullableFlag,
  nullableNumber,
  nullableString,
  oneOf,
  parseSnapshot,
  parseStored,
  storedMap,
  timestamp,
  valueWhere,
  type Reader,
  type Stored,
} from "./stored";

/**
 * Operator overrides `{ perMinute?, perDay? }`; an invalid one is ignored (the next level applies).
 */
export interface RateLimitOverride {
  perMinute?: number;
  perDay?: number;
}
const isLimit = (n: unknown) => n === undefined || (Number.isSafeInteger(n) && (n as number) > 0);
export const rateLimitOverride: Reader<RateLimitOverride | undefined> = (v, parent, key) => {
  if (v === undefined) return undefined;
  if (!isMap(v) || !isLimit(v.perMinute) || !isLimit(v.perDay))
    return misfit(parent, key, undefined);
  return { perMinute: v.perMinute as number | undefined, perDay: v.perDay as number | undefined };
};

/** The scopes a company's limits may be arranged for (docs/firestore-data.md, `rateLimits`). */
const LIMIT_SCOPES = ["read", "provisioning"] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

/** `companies.rateLimits`: company-wide fields plus one override per scope. */
export interface CompanyRateLimits extends RateLimitOverride {
  read?: RateLimitOverride;
  provisioning?: RateLimitOverride;
}
/** Each part read on its own: an invalid one is ignored with a warning, the rest still apply. */
export const companyRateLimits: Reader<CompanyRateLimits | undefined> = (v, parent, key) => {
  if (v === undefined) return undefined;
  if (!isMap(v)) return misfit(parent, key, undefined);
  const read: CompanyRateLimits = {};
  const path = fieldAt(parent, key);
  for (const field of ["perMinute", "perDay"] as const) {
    if (isLimit(v[field])) read[field] = v[field] as number | undefined;
    else misfit(path, field, undefined);
  }
  for (const scope of LIMIT_SCOPES) read[scope] = rateLimitOverride(v[scope], path, scope);
  return read;
};

export const ATTRIBUTE_SOURCES = ["app", "identityProvider"] as const;
export type AttributeSource = (typeof ATTRIBUTE_SOURCES)[number];
const attributeSource = oneOf(ATTRIBUTE_SOURCES, "app");

/**
 * The company's domains; null only for the operator's explicit `["*"]` (any domain). Absent: none.
 * A list that cannot be read refuses every address.
 */
const domains: Reader<string[] | null> = (v, parent, key) => {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v) && v.every((d) => typeof d === "string"))
    return v.includes(ANY_DOMAIN) ? null : v.map((d: string) => d.toLowerCase());
  return misfit(parent, key, []);
};

/**
 * The stored list that opts a company into provisioning any domain (`keys -- provisioning
 * --any-domain`).
 */
export const ANY_DOMAIN = "*";

const isMonth = (v: unknown): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 12;

/** `companies/{companyId}`: the fields the APIs act on. */
export const companyShape = {
  name: nullableString,
  plan: nullableString,
  apiAccess: storedMap({ findingsExport: nullableFlag, companyApi: nullableFlag }),
  seatCapacity: nullableNumber,
  seatsUsed: nullableNumber,
  rateLimits: companyRateLimits,
  /** IdP role value → app role, set by the operator (see services/users/rules.ts). */
  provisioningRoleMap: freeForm,
  /**
   * SCIM group name → `{ role?, department? }`, set by the operator (services/users/rules.ts
   * `groupAssignment`).
   */
  provisioningGroupMap: freeForm,
  /**
   * The company's e-mail domains for provisioning; empty (also absent): none, so no provisioning;
   * null: any domain.
   */
  provisioningDomains: domains,
  /**
   * Who owns the role and the department of provisioned users (docs/firestore-data.md); anything
   * else reads as `app`.
   */
  provisioningRolesSource: attributeSource,
  provisioningDepartmentSource: attributeSource,
  /**
   * ESRS reporting period (lib/period.ts): an IANA zone and the financial year's first month;
   * invalid reads as the default.
   */
  reportingTimeZone: valueWhere(
    (v): v is string => typeof v === "string" && isTimeZone(v),
    DEFAULT_REPORTING.timeZone,
  ),
  financialYearStartMonth: valueWhere(isMonth, DEFAULT_REPORTING.firstMonth),
  /**
   * ESRS datapoint id → why it is not disclosed (docs/firestore-data.md); interpreted by
   * services/esrs.
   */
  esrsOmissions: freeForm,
};
export type CompanyDoc = Stored<typeof companyShape>;

export const companiesCollection = () => firestore().collection("companies");
export const companyRef = (companyId: string) => companiesCollection().doc(companyId);

export const companyOf = (snap: DocumentSnapshot): CompanyDoc | null =>
  snap.exists ? parseStored(companyShape, snap.ref.path, snap.data()) : null;

export async function findCompany(companyId: string): Promise<CompanyDoc | null> {
  return companyOf(await companyRef(companyId).get());
}

/**
 * The company's ESRS settings in one read: the reporting period's and the datapoints marked as not
 * disclosed (as stored).
 */
export async function findEsrsSettings(
  companyId: string,
): Promise<{ reporting: ReportingSettings; omissions: Record<string, unknown> }> {
  const company = await findCompany(companyId);
  return company
    ? {
        reporting: {
          timeZone: company.reportingTimeZone,
          firstMonth: company.financialYearStartMonth,
        },
        omissions: company.esrsOmissions,
      }
    : { reporting: DEFAULT_REPORTING, omissions: {} };
}

/**
 * The company's reporting period settings; the defaults (UTC, January) when it or they are absent.
 */
export async function findReportingSettings(companyId: string): Promise<ReportingSettings> {
  const company = await findCompany(companyId);
  return company
    ? { timeZone: company.reportingTimeZone, firstMonth: company.financialYearStartMonth }
    : DEFAULT_REPORTING;
}

/**
 * `projects/{projectId}`. Only the allow-listed fields are parsed at all: budget, hours,
 * drawings and internal notes never enter the process's typed data.
 */
export const projectShape = {
  companyId: nullableString,
  name: nullableString,
  customerProjectId: nullableString,
  status: nullableString,
  isClosed: flag,
  dateCreated: timestamp,
  currentMilestone: nullableString,
  projectProgress: nullableNumber,
  findingsCounter: nullableNumber,
  findingsCounterIsCorrected: nullableNumber,
  inspectionsCounter: nullableNumber,
  issuesCounter: nullableNumber,
  vessel: freeForm,
  classification: freeForm,
  propulsion: freeForm,
  survey: freeForm,
  claim: freeForm,
  client: freeForm,
  // Like `hidden`: a `deleted` that is not a boolean counts as deleted (fail closed).
  deleted: hiddenFlag,
};
export type ProjectDoc = Stored<typeof projectShape> & { id: string };

export const projectRef = (projectId: string) => firestore().collection("projects").doc(projectId);

export const projectOf = (snap: DocumentSnapshot): ProjectDoc | null =>
  snap.exists ? parseSnapshot(projectShape, snap) : null;

/**
 * A project a key of this company may be bound to: it exists, is not deleted, and is the company's.
 */
export function isLiveProjectOf(
  project: Pick<ProjectDoc, "deleted" | "companyId"> | null,
  companyId: string,
): boolean {
  return Boolean(project && !project.deleted && project.companyId === companyId);
}

/** `companies/{companyId}/departments/{id}`, as far as the APIs use it. */
export interface Department {
  id: string;
  name: string;
}

export async function departmentsOf(companyId: string): Promise<Department[]> {
  const snap = await companyRef(companyId).collection("departments").get();
  return snap.docs.flatMap((d) =>
    typeof d.get("name") === "string" ? [{ id: d.id, name: d.get("name") as string }] : [],
  );
}
