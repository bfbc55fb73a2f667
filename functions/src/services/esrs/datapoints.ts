/**
 * ESRS S1-14 "Health and safety metrics" (Delegated Regulation (EU) 2023/2772, ESRS S1
 * paragraphs 88–90 and AR 80–95), one definition per datapoint, ids as in EFRAG IG 3.
 *
 * Definitions only say *what* a datapoint is. The evaluators (evaluate.ts) decide *how*: as
 * Firestore aggregation queries, or over an in-memory list for the unit tests. What an incident
 * counts as (a case, its kind and date) is decided in one place, `s1Case` in evaluate.ts.
 */

/**
 * `employee` and `non_employee` are the own workforce; `other_worker` a value-chain worker on the
 * company's sites.
 */
export type PersonType = "employee" | "non_employee" | "other_worker";
/**
 * What a counted incident is for S1-14: an injury (any fatal incident not filed as ill health) or
 * an ill-health case.
 */
export type CaseKind = "injury" | "ill_health";
export type Unit = "percent" | "count" | "per_million_hours" | "days" | "text";
/** XBRL period type: a flow over the period, or a state at its end. */
export type PeriodType = "duration" | "instant";
/** Why a datapoint is not disclosed, as the company marks it (`esrsOmissions`). */
export const OMISSIONS = ["not_collected_legal_restrictions", "voluntary_not_disclosed"] as const;
export type Omission = (typeof OMISSIONS)[number];
export const UNITS = [
  "percent",
  "count",
  "per_million_hours",
  "days",
  "text",
] as const satisfies readonly Unit[];

export const OWN_WORKFORCE = ["employee", "non_employee"] as const satisfies readonly PersonType[];
const BOTH: readonly CaseKind[] = ["injury", "ill_health"];

export interface IncidentSelection {
  personTypes: readonly PersonType[];
  kinds: readonly CaseKind[];
  /** Only deaths. */
  fatalOnly?: boolean;
  /**
   * Count the cases, or sum their `daysLost` (calendar days, not counting the day of the incident).
   */
  measure: "count" | "daysLost";
}

/** A breakdown row: a part of the total row `of`, by person type (¶88) or by cause (AR 82). */
export interface BreakdownOf {
  of: string;
  by: "person_type" | "cause";
  member: PersonType | CaseKind;
}

interface Meta {
  id: string;
  paragraph: string;
  name: string;
  unit: Unit;
  /** May be disclosed (¶89, AR 94): the company may mark it `voluntary_not_disclosed`. */
  voluntary?: boolean;
  /** Shown as the row's note. */
  methodology: string;
  breakdown?: BreakdownOf;
}

export type Datapoint = Meta &
  (
    | { source: "incidents"; select: IncidentSelection }
    /**
     * `numerator` (another datapoint's id) per `per` hours worked in the period; `workforce`: hours
     * of that group only.
     */
    | { source: "rate"; numerator: string; per: number; workforce?: PersonType }
    /** A headcount field of `healthSafetyCoverage/{year}` as a percentage of its `headcount`. */
    | { source: "coverage"; field: "coveredHeadcount" | "auditedHeadcount" }
    /** `certificationStandards` of `healthSafetyCoverage/{year}`, as text. */
    | { source: "standards" }
    /**
     * Data the app does not collect: always null, the row present so that a tagging tool finds it.
     */
    | { source: "not_collected" }
  );

export type IncidentDatapoint = Extract<Datapoint, { source: "incidents" }>;

const CASES =
  "Only work-related cases count, hidden incidents never. A case is a recordable " +
  "incident (harm to a person) or a death, whatever its `recordable` flag. " +
  "Injuries are dated by event date, ill-health cases by when they were reported (AR " +
  "94), in the reporting period; a death by its date of death where recorded, else as its case.";
const INJURY =
  "An accident (injury) is a case filed under any type but `ill_health` (88 (c), AR 91): " +
  "a recordable `dangerous_occurrence` counts, as a fatal one does.";
const DAYS =
  "Days lost are whole calendar days the person could not work (IG 3: an integer), not " +
  "counting the day of the incident, booked in full to the period the case is dated " +
  "in; a negative or fractional stored value adds nothing and is logged.";
const PHASE_IN =
  "Phase-in (ESRS 1 Appendix C): may be omitted in the first year of reporting; always " +
  "computed here, the omission is the undertaking's decision.";
const ROUNDING =
  "rounded half up to two decimals, or to three significant digits when below 1 (one " +
  "accident in 250 million hours is 0.004, not 0)";
const RATE_NOTE =
  "Divided by the hours worked in the period's twelve months by the whole own workforce, " +
  "employees and non-employees, as the accidents counted are (AR 89): " +
  `app records plus the API's values, nothing estimated; hours of employees alone would ` +
  `overstate the rate. × 1,000,000, ${ROUNDING}.`;

const fatalities = (
  personTypes: readonly PersonType[],
  kinds: readonly CaseKind[] = BOTH,
): IncidentSelection => ({ personTypes, kinds, fatalOnly: true, measure: "count" });
const accidents = (personTypes: readonly PersonType[]): IncidentSelection => ({
  personTypes,
  kinds: ["injury"],
  measure: "count",
});

/** The total rows, S1-14_01 … S1-14_12, in this order; breakdown rows follow them. */
export const TOTALS: readonly Datapoint[] = [
  {
    id: "S1-14_01",
    paragraph: "ESRS S1 88 (a)",
    name: "coverage_by_health_and_safety_management_system",
    unit: "percent",
    source: "coverage",
    field: "coveredHeadcount",
    methodology:
      "Own-workforce headcount covered by the health and safety management system " +
      "divided by the own-workforce headcount, × 100, from the period's coverage data " +
      "entered in the app, rounded half up to two decimals.",
  },
  {
    id: "S1-14_02",
    paragraph: "ESRS S1 88 (b)",
    name: "work_related_fatalities",
    unit: "count",
    source: "incidents",
    select: fatalities(OWN_WORKFORCE),
    methodology:
      `Deaths of employees and non-employees (own workforce) from ` +
      `work-related injuries and ill health. ${CASES}`,
  },
  {
    id: "S1-14_03",
    paragraph: "ESRS S1 88 (b)",
    name: "fatalities_other_workers",
    unit: "count",
    source: "incidents",
    select: fatalities(["other_worker"]),
    methodology:
      `Deaths of other workers (value-chain workers on the company's sites) ` +
      `from work-related injuries and ill health. ${CASES}`,
  },
  {
    id: "S1-14_04",
    paragraph: "ESRS S1 88 (c)",
    name: "recordable_work_related_accidents",
    unit: "count",
    source: "incidents",
    select: accidents(OWN_WORKFORCE),
    methodology:
      `Recordable work-related accidents of the own workforce, deaths ` +
      `included (AR 91). ${INJURY} ${CASES}`,
  },
  {
    id: "S1-14_05",
    paragraph: "ESRS S1 88 (c)",
    name: "rate_of_recordable_work_related_accidents",
    unit: "per_million_hours",
    source: "rate",
    numerator: "S1-14_04",
    per: 1_000_000,
    methodology: `Recordable work-related accidents (S1-14_04). ${RATE_NOTE}`,
  },
  {
    id: "S1-14_06",
    paragraph: "ESRS S1 88 (d)",
    name: "recordable_work_related_ill_health_cases",
    unit: "count",
    source: "incidents",
    select: { personTypes: ["employee"], kinds: ["ill_health"], measure: "count" },
    methodology: `Ill-health cases of employees, deaths included. ${CASES} ${PHASE_IN}`,
  },
  {
    id: "S1-14_07",
    paragraph: "ESRS S1 88 (e)",
    name: "days_lost_to_work_related_injuries",
    unit: "days",
    source: "incidents",
    select: { personTypes: ["employee"], kinds: BOTH, measure: "daysLost" },
    methodology:
      `Days lost over employees' injuries and ill-health cases, deaths ` +
      `included. ${DAYS} ${CASES} ${PHASE_IN}`,
  },
  {
    id: "S1-14_08",
    paragraph: "ESRS S1 89",
    name: "recordable_work_related_ill_health_cases_non_employees",
    voluntary: true,
    unit: "count",
    source: "incidents",
    select: { personTypes: ["non_employee"], kinds: ["ill_health"], measure: "count" },
    methodology:
      `Voluntary: ill-health cases of non-employees in the own workforce, ` +
      `deaths included. ${CASES}`,
  },
  {
    id: "S1-14_09",
    paragraph: "ESRS S1 89",
    name: "days_lost_to_work_related_injuries_non_employees",
    voluntary: true,
    unit: "days",
    source: "incidents",
    select: { personTypes: ["non_employee"], kinds: BOTH, measure: "daysLost" },
    methodology:
      `Voluntary: days lost over non-employees' injuries and ill-health ` +
      `cases, deaths included. ${DAYS} ${CASES}`,
  },
  {
    id: "S1-14_10",
    paragraph: "ESRS S1 90",
    name: "coverage_by_audited_or_certified_health_and_safety_management_system",
    unit: "percent",
    source: "coverage",
    field: "auditedHeadcount",
    methodology:
      "Own-workforce headcount covered by an internally audited and/or externally " +
      "certified health and safety management system divided by the own-workforce " +
      "headcount, × 100, rounded half up to two decimals.",
  },
  {
    id: "S1-14_11",
    paragraph: "ESRS S1 AR 81",
    name: "health_and_safety_management_system_standards",
    unit: "text",
    source: "standards",
    methodology:
      "The standards underlying the internal audit or external certification, as entered " +
      'in the app for the period, joined with ", ".',
  },
  {
    id: "S1-14_12",
    paragraph: "ESRS S1 AR 94",
    name: "voluntary_datapoint_ar_94",
    unit: "count",
    voluntary: true,
    source: "not_collected",
    methodology:
      "Voluntary (AR 94): the app records no data for this datapoint, so it is always " +
      "null; the row is present so that a tagging tool finds it. It has no element in the " +
      "ESRS XBRL taxonomy 2023-12-22 (`concept` is null).",
  },
];

const GROUP = { employee: "employees", non_employee: "non-employees" } as const;
const byPerson = (of: string, member: "employee" | "non_employee") => ({
  id: `${of}.${member}`,
  breakdown: { of, by: "person_type", member } as BreakdownOf,
});

/**
 * ¶88 "where applicable broken down between employees and non-employees", and AR 82's split of
 * deaths by cause.
 */
export const BREAKDOWNS: readonly Datapoint[] = [
  ...OWN_WORKFORCE.map((p): Datapoint => ({
    ...byPerson("S1-14_02", p),
    paragraph: "ESRS S1 88 (b)",
    name: `work_related_fatalities_${GROUP[p].replace("-", "_")}`,
    unit: "count",
    source: "incidents",
    select: fatalities([p]),
    methodology: `Part of S1-14_02: deaths of ${GROUP[p]}. ${CASES}`,
  })),
  ...BOTH.map((kind): Datapoint => ({
    id: `S1-14_02.${kind}`,
    breakdown: { of: "S1-14_02", by: "cause", member: kind },
    paragraph: "ESRS S1 AR 82",
    name:
      kind === "injury"
        ? "work_related_fatalities_from_injuries"
        : "work_related_fatalities_from_ill_health",
    unit: "count",
    source: "incidents",
    select: fatalities(OWN_WORKFORCE, [kind]),
    methodology:
      kind === "injury"
        ? `Part of S1-14_02: deaths from work-related injuries. ${INJURY} ${CASES}`
        : `Part of S1-14_02: deaths from work-related ill health (incidents filed as ` +
          `\`ill_health\`). ${CASES}`,
  })),
  ...OWN_WORKFORCE.map((p): Datapoint => ({
    ...byPerson("S1-14_04", p),
    paragraph: "ESRS S1 88 (c)",
    name: `recordable_work_related_accidents_${GROUP[p].replace("-", "_")}`,
    unit: "count",
    source: "incidents",
    select: accidents([p]),
    methodology:
      `Part of S1-14_04: recordable work-related accidents of ${GROUP[p]}, ` +
      `deaths included. ${INJURY} ${CASES}`,
  })),
  ...OWN_WORKFORCE.map((p): Datapoint => ({
    ...byPerson("S1-14_05", p),
    paragraph: "ESRS S1 88 (c)",
    name: `rate_of_recordable_work_related_accidents_${GROUP[p].replace("-", "_")}`,
    unit: "per_million_hours",
    source: "rate",
    numerator: `S1-14_04.${p}`,
    per: 1_000_000,
    workforce: p,
    methodology:
      `Part of S1-14_05: recordable work-related accidents of ${GROUP[p]} ` +
      `(S1-14_04.${p}) per 1,000,000 hours worked by ${GROUP[p]}: the hours sent with ` +
      `\`worker_category\` ${p === "employee" ? "`employees`" : "`non_employees`"}, ` +
      `given only when every hour of the period is attributed to a group; ${ROUNDING}.`,
  })),
];

export const DATAPOINTS: readonly Datapoint[] = [...TOTALS, ...BREAKDOWNS];

export const incidentDatapoints = (): IncidentDatapoint[] =>
  DATAPOINTS.filter((d): d is IncidentDatapoint => d.source === "incidents");
