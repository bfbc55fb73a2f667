/**
 * ESRS S1-14 "Health and safety metrics" (Delegated Regulation (EU) 2023/2772, ESRS S1
 * paragraphs 88–90 and AR 80–95), one definition per datapoint, ids as in EFRAG IG 3.
 *
 * Definitions only say *what* a datapoint is. The evaluators (evaluate.ts) decide *how*: as
 * Firestore aggregation queries, or over an in-memory list for the unit tests. Every incident
 * selection is implicitly restricted to work-related (`workRelated == true`), recordable
 * (`recordable == true`), not hidden incidents whose `eventDate` lies in the UTC calendar year.
 */

/** `employee` and `non_employee` are the own workforce; `other_worker` a value-chain worker on the company's sites. */
export type PersonType = "employee" | "non_employee" | "other_worker";
export type IncidentType = "injury" | "ill_health";
export type Unit = "percent" | "count" | "per_million_hours" | "days" | "text";
export const UNITS = ["percent", "count", "per_million_hours", "days", "text"] as const satisfies readonly Unit[];

export const OWN_WORKFORCE = ["employee", "non_employee"] as const satisfies readonly PersonType[];

export interface IncidentSelection {
  personTypes: readonly PersonType[];
  /** Absent: any type. A death counts whatever category the incident was filed under. */
  types?: readonly IncidentType[];
  /** Only incidents with `fatality == true`. */
  fatalOnly?: boolean;
  /** Count the incidents, or sum their `daysLost` (calendar days, not counting the day of the incident). */
  measure: "count" | "daysLost";
}

interface Meta {
  id: string;
  paragraph: string;
  name: string;
  unit: Unit;
  /** One sentence, shown as the row's note. */
  methodology: string;
}

export type Datapoint = Meta &
  (
    | { source: "incidents"; select: IncidentSelection }
    /** `numerator` (another datapoint's id) per `per` hours worked in the year. */
    | { source: "rate"; numerator: string; per: number }
    /** A headcount field of `healthSafetyCoverage/{year}` as a percentage of its `headcount`. */
    | { source: "coverage"; field: "coveredHeadcount" | "auditedHeadcount" }
    /** `certificationStandards` of `healthSafetyCoverage/{year}`, as text. */
    | { source: "standards" }
  );

export type IncidentDatapoint = Extract<Datapoint, { source: "incidents" }>;

const IN_YEAR = "by event date in the UTC calendar year; only work-related, recordable cases, hidden incidents excluded";

export const DATAPOINTS: readonly Datapoint[] = [
  {
    id: "S1-14_01",
    paragraph: "ESRS S1 88 (a)",
    name: "coverage_by_health_and_safety_management_system",
    unit: "percent",
    source: "coverage",
    field: "coveredHeadcount",
    methodology: "Own-workforce headcount covered by the health and safety management system divided by the own-workforce headcount, × 100, from the year's coverage data entered in the app, rounded to two decimals.",
  },
  {
    id: "S1-14_02",
    paragraph: "ESRS S1 88 (b)",
    name: "work_related_fatalities",
    unit: "count",
    source: "incidents",
    select: { personTypes: OWN_WORKFORCE, fatalOnly: true, measure: "count" },
    methodology: `Fatal incidents of employees and non-employees (own workforce), ${IN_YEAR}.`,
  },
  {
    id: "S1-14_03",
    paragraph: "ESRS S1 88 (b)",
    name: "fatalities_other_workers",
    unit: "count",
    source: "incidents",
    select: { personTypes: ["other_worker"], fatalOnly: true, measure: "count" },
    methodology: `Fatal incidents of other workers (value-chain workers on the company's sites), ${IN_YEAR}.`,
  },
  {
    id: "S1-14_04",
    paragraph: "ESRS S1 88 (c)",
    name: "recordable_work_related_accidents",
    unit: "count",
    source: "incidents",
    select: { personTypes: OWN_WORKFORCE, types: ["injury"], measure: "count" },
    methodology: `Injuries of employees and non-employees (own workforce), fatal ones included, ${IN_YEAR}.`,
  },
  {
    id: "S1-14_05",
    paragraph: "ESRS S1 88 (c)",
    name: "rate_of_recordable_work_related_accidents",
    unit: "per_million_hours",
    source: "rate",
    numerator: "S1-14_04",
    per: 1_000_000,
    methodology: "Recordable work-related accidents (S1-14_04) divided by the hours worked in the year's twelve months (all sources, app and API), × 1,000,000, rounded to two decimals.",
  },
  {
    id: "S1-14_06",
    paragraph: "ESRS S1 88 (d)",
    name: "recordable_work_related_ill_health_cases",
    unit: "count",
    source: "incidents",
    select: { personTypes: ["employee"], types: ["ill_health"], measure: "count" },
    methodology: `Ill-health cases of employees, fatal ones included, ${IN_YEAR}.`,
  },
  {
    id: "S1-14_07",
    paragraph: "ESRS S1 88 (e)",
    name: "days_lost_to_work_related_injuries",
    unit: "days",
    source: "incidents",
    select: { personTypes: ["employee"], types: ["injury", "ill_health"], measure: "daysLost" },
    methodology: `Sum of calendar days lost (not counting the day of the incident) over employees' injuries and ill-health cases, fatal ones included, ${IN_YEAR}.`,
  },
  {
    id: "S1-14_08",
    paragraph: "ESRS S1 89",
    name: "recordable_work_related_ill_health_cases_non_employees",
    unit: "count",
    source: "incidents",
    select: { personTypes: ["non_employee"], types: ["ill_health"], measure: "count" },
    methodology: `Voluntary: ill-health cases of non-employees in the own workforce, fatal ones included, ${IN_YEAR}.`,
  },
  {
    id: "S1-14_09",
    paragraph: "ESRS S1 89",
    name: "days_lost_to_work_related_injuries_non_employees",
    unit: "days",
    source: "incidents",
    select: { personTypes: ["non_employee"], types: ["injury", "ill_health"], measure: "daysLost" },
    methodology: `Voluntary: sum of calendar days lost (not counting the day of the incident) over non-employees' injuries and ill-health cases, fatal ones included, ${IN_YEAR}.`,
  },
  {
    id: "S1-14_10",
    paragraph: "ESRS S1 90",
    name: "coverage_by_audited_or_certified_health_and_safety_management_system",
    unit: "percent",
    source: "coverage",
    field: "auditedHeadcount",
    methodology: "Own-workforce headcount covered by an internally audited and/or externally certified health and safety management system divided by the own-workforce headcount, × 100, rounded to two decimals.",
  },
  {
    id: "S1-14_11",
    paragraph: "ESRS S1 AR 81",
    name: "health_and_safety_management_system_standards",
    unit: "text",
    source: "standards",
    methodology: "The standards underlying the internal audit or external certification, as entered in the app for the year, joined with \", \".",
  },
];

export const incidentDatapoints = (): IncidentDatapoint[] => DATAPOINTS.filter((d): d is IncidentDatapoint => d.source === "incidents");
