import type { MonthWindow } from "../lib/months";
import { recentZonedMonths } from "../lib/period";
import { createLimiter } from "../lib/pool";
import {
  aggregate,
  distinctValues,
  matchesFilters,
  type Aggregation,
  type Filter,
} from "../repos/aggregates";
import { findReportingSettings } from "../repos/companies";
import { readHiddenIncidents } from "../repos/incidents";

/**
 * The KPI rollup of one company: for each area a total, a count per month for the 24 most recent
 * months of the company's reporting calendar (its `reportingTimeZone`, as ESRS; zero-filled) and a
 * count per status value present (incidents also per type), computed with aggregation queries, plus
 * one read of the hidden incidents. The number of queries depends on the number of months, areas
 * and distinct status/type values, never on the number of documents; documents read are the
 * distinct values' and the hidden incidents'.
 */
interface Area {
  collection: string;
  /** The timestamp a document is counted in a month by. */
  dateField: string;
  /** Fields counted per distinct value: `status` → `by_status`, `type` → `by_type`. */
  groups: Array<"status" | "type">;
  /**
   * Incidents: hidden ones never count, by the same rule as the export and ESRS (`isHiddenValue`):
   * they are read once and those matching each count's filters subtracted.
   */
  excludesHidden?: boolean;
}

export const ROLLUP_AREAS = {
  incidents: {
    collection: "incidents",
    dateField: "eventDate",
    groups: ["status", "type"],
    excludesHidden: true,
  },
  findings: { collection: "actions", dateField: "createdAt", groups: ["status"] },
  inspections: { collection: "inspections", dateField: "createdAt", groups: ["status"] },
  assets: { collection: "assets", dateField: "createdAt", groups: ["status"] },
  risk_assessments: { collection: "riskAssessments", dateField: "createdAt", groups: ["status"] },
  locations: { collection: "locations", dateField: "createdAt", groups: ["status"] },
} satisfies Record<string, Area>;

export const MONTHS = 24;
/** Aggregation queries in flight at once, per rollup. */
const CONCURRENCY = 16;

export type Counts = Record<string, number>;
export interface AreaRollup {
  total: number;
  by_month: Counts;
  by_status: Counts;
  by_type?: Counts;
}
export interface WorkedHoursRollup {
  total: number;
  by_month: Counts;
  by_source: Counts;
}
export interface Rollup {
  months: string[];
  areas: Record<keyof typeof ROLLUP_AREAS, AreaRollup> & { worked_hours: WorkedHoursRollup };
}

type Run = <T>(task: () => Promise<T>) => Promise<T>;

type Month = MonthWindow;

const inMonth = (area: Area, m: Month): Filter[] => [
  [area.dateField, ">=", m.start],
  [area.dateField, "<", m.end],
];
const withValue = (field: string, value: unknown): Filter[] => [[field, "==", value]];
const hours = (filters: Filter[]): Aggregation => ({
  collection: "workedHours",
  filters,
  sum: "hours",
});

/**
 * The aggregations of one area's rollup, built only here: the rollup runs these, and the index
 * test enumerates them through this function, so a query added here is checked for its index.
 */
export function areaQueries(area: Area, months: Month[]) {
  const of = (filters: Filter[]): Aggregation => ({ collection: area.collection, filters });
  return {
    total: of([]),
    perMonth: months.map((m) => of(inMonth(area, m))),
    /** For each value present of a field in `area.groups`. */
    byValue: (field: Area["groups"][number], value: string) => of(withValue(field, value)),
  };
}

/** The worked-hours sums, built only here (as `areaQueries`). */
export function workedHoursQueries(months: Month[]) {
  return {
    total: hours([]),
    perMonth: months.map((m) => hours(withValue("month", m.key))),
    api: hours(withValue("source", "api")),
  };
}

type Hidden = Promise<Array<Record<string, unknown>>>;

async function areaRollup(
  companyId: string,
  area: Area,
  months: Month[],
  run: Run,
  hidden: Hidden,
): Promise<AreaRollup> {
  const queries = areaQueries(area, months);
  const count = async (spec: Aggregation) => {
    const [all, hiddenDocs] = await Promise.all([
      run(() => aggregate(companyId, spec)),
      area.excludesHidden ? hidden : [],
    ]);
    return all - hiddenDocs.filter((d) => matchesFilters(d, spec.filters)).length;
  };
  const grouped = async (field: Area["groups"][number]): Promise<Counts> => {
    // Counted per value present; values that are not text (bad data) are left out of the keys.
    const values = (await run(() => distinctValues(companyId, area.collection, field))).filter(
      (v): v is string => typeof v === "string",
    );
    const counts = await Promise.all(values.map((value) => count(queries.byValue(field, value))));
    return Object.fromEntries(
      values.map((value, i) => [value, counts[i]] as const).filter(([, n]) => n > 0),
    );
  };
  const [total, perMonth, byStatus, byType] = await Promise.all([
    count(queries.total),
    Promise.all(queries.perMonth.map(count)),
    grouped("status"),
    area.groups.includes("type") ? grouped("type") : Promise.resolve(undefined),
  ]);
  return {
    total,
    by_month: Object.fromEntries(months.map((m, i) => [m.key, perMonth[i]])),
    by_status: byStatus,
    ...(byType ? { by_type: byType } : {}),
  };
}

/**
 * Worked hours: the sum of `hours` per `month` (an exact `YYYY-MM` match, as GET /v1/worked-hours
 * and ESRS sum them) over every source. `total` is every document with numeric hours; the app's
 * share is what is not the API's (a document without `source` is the app's), so app + api = total.
 */
async function workedHours(
  companyId: string,
  months: Month[],
  run: Run,
): Promise<WorkedHoursRollup> {
  const queries = workedHoursQueries(months);
  const sum = (spec: Aggregation) => run(() => aggregate(companyId, spec));
  const [total, perMonth, api] = await Promise.all([
    sum(queries.total),
    Promise.all(queries.perMonth.map(sum)),
    sum(queries.api),
  ]);
  return {
    total,
    by_month: Object.fromEntries(months.map((m, i) => [m.key, perMonth[i]])),
    by_source: { app: total - api, api },
  };
}

export async function computeRollup(companyId: string, now: Date): Promise<Rollup> {
  const { timeZone } = await findReportingSettings(companyId);
  const months = recentZonedMonths(now, MONTHS, timeZone);
  const run = createLimiter(CONCURRENCY);
  const names = Object.keys(ROLLUP_AREAS) as Array<keyof typeof ROLLUP_AREAS>;
  const hidden = run(() => readHiddenIncidents(companyId));
  const [rollups, hours] = await Promise.all([
    Promise.all(
      names.map((name) => areaRollup(companyId, ROLLUP_AREAS[name], months, run, hidden)),
    ),
    workedHours(companyId, months, run),
  ]);
  const areas = { worked_hours: hours } as Rollup["areas"];
  names.forEach((name, i) => (areas[name] = rollups[i]));
  return { months: months.map((m) => m.key), areas };
}
