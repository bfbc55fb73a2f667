import { recentMonths } from "../lib/months";
import { createLimiter } from "../lib/pool";
import { aggregate, distinctValues, type AggregateStats, type Aggregation, type Filter } from "../repos/aggregates";

/**
 * The KPI rollup of one company: for each area a total, a count per month for the 24 most
 * recent UTC months (zero-filled) and a count per status value present (incidents also per
 * type), computed with aggregation queries only. The number of queries depends on the number
 * of months, areas and distinct status/type values, never on the number of documents.
 */
interface Area {
  collection: string;
  /** The timestamp a document is counted in a month by. */
  dateField: string;
  /** Fields counted per distinct value: `status` → `by_status`, `type` → `by_type`. */
  groups: Array<"status" | "type">;
  /** Incidents: `hidden == true` ones never count (subtracted: a `!=` filter would drop documents without the field). */
  excludesHidden?: boolean;
}

export const ROLLUP_AREAS = {
  incidents: { collection: "incidents", dateField: "eventDate", groups: ["status", "type"], excludesHidden: true },
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

type Month = ReturnType<typeof recentMonths>[number];

/** The filters every rollup query is built from (the queries below and rollupAggregations alike). */
const inMonth = (area: Area, m: Month): Filter[] => [
  [area.dateField, ">=", m.start],
  [area.dateField, "<", m.end],
];
const withValue = (field: string, value: unknown): Filter[] => [[field, "==", value]];
const hiddenOnes = (filters: Filter[]): Filter[] => [...filters, ["hidden", "==", true]];
const hours = (filters: Filter[]): Aggregation => ({ collection: "workedHours", filters, sum: "hours" });
const SOURCES = ["app", "api"] as const;

/** Every aggregation shape a rollup issues (for the index test), from the same builders. */
export function rollupAggregations(): Aggregation[] {
  const [m] = recentMonths(new Date(0), 1);
  const areaShapes = Object.values(ROLLUP_AREAS).flatMap((area: Area) =>
    [[], inMonth(area, m), ...area.groups.map((g) => withValue(g, ""))].flatMap((filters) => [
      { collection: area.collection, filters },
      ...(area.excludesHidden ? [{ collection: area.collection, filters: hiddenOnes(filters) }] : []),
    ]),
  );
  return [...areaShapes, hours([]), hours(withValue("month", m.key)), hours(withValue("source", SOURCES[0]))];
}

async function areaRollup(companyId: string, area: Area, months: Month[], run: Run, stats: AggregateStats): Promise<AreaRollup> {
  const count = async (filters: Filter[]) => {
    const [all, hidden] = await Promise.all([
      run(() => aggregate(companyId, { collection: area.collection, filters }, stats)),
      area.excludesHidden ? run(() => aggregate(companyId, { collection: area.collection, filters: hiddenOnes(filters) }, stats)) : 0,
    ]);
    return all - hidden;
  };
  const grouped = async (field: string): Promise<Counts> => {
    // Counted per value present; values that are not text (bad data) are left out of the keys.
    const values = (await run(() => distinctValues(companyId, area.collection, field, stats))).filter((v): v is string => typeof v === "string");
    const counts = await Promise.all(values.map((value) => count(withValue(field, value))));
    return Object.fromEntries(values.map((value, i) => [value, counts[i]] as const).filter(([, n]) => n > 0));
  };
  const [total, perMonth, byStatus, byType] = await Promise.all([
    count([]),
    Promise.all(months.map((m) => count(inMonth(area, m)))),
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

/** Worked hours: the sum of `hours` per `month` over every source (app and API). */
async function workedHours(companyId: string, months: Month[], run: Run, stats: AggregateStats): Promise<WorkedHoursRollup> {
  const sum = (filters: Filter[]) => run(() => aggregate(companyId, hours(filters), stats));
  const [total, perMonth, [app, api]] = await Promise.all([
    sum([]),
    Promise.all(months.map((m) => sum(withValue("month", m.key)))),
    Promise.all(SOURCES.map((source) => sum(withValue("source", source)))),
  ]);
  return { total, by_month: Object.fromEntries(months.map((m, i) => [m.key, perMonth[i]])), by_source: { app, api } };
}

export async function computeRollup(companyId: string, now: Date, stats: AggregateStats = { queries: 0, documentsRead: 0 }): Promise<Rollup> {
  const months = recentMonths(now, MONTHS);
  const run = createLimiter(CONCURRENCY);
  const names = Object.keys(ROLLUP_AREAS) as Array<keyof typeof ROLLUP_AREAS>;
  const [rollups, hours] = await Promise.all([
    Promise.all(names.map((name) => areaRollup(companyId, ROLLUP_AREAS[name], months, run, stats))),
    workedHours(companyId, months, run, stats),
  ]);
  const areas = { worked_hours: hours } as Rollup["areas"];
  names.forEach((name, i) => (areas[name] = rollups[i]));
  return { months: months.map((m) => m.key), areas };
}
