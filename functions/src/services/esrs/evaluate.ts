import { createLimiter } from "../../lib/pool";
import { monthKey } from "../../lib/months";
import { aggregate, type AggregateStats, type Aggregation, type Filter } from "../../repos/aggregates";
import { incidentDatapoints, type IncidentSelection } from "./datapoints";

/**
 * The two evaluators of the incident datapoints (datapoints.ts): Firestore aggregation queries
 * in production, a plain filter over a list in the unit tests. The emulator test checks that
 * both give the same numbers, so the in-memory one is the readable statement of the meaning.
 */

/** Datapoint id → count or sum, for the datapoints whose source is `incidents`. */
export type IncidentValues = Record<string, number>;

/** An incident as the contract stores it (companies/{c}/incidents), the fields the datapoints read. */
export interface IncidentFacts {
  eventDate: Date | null;
  type: string | null;
  personType: string | null;
  workRelated: boolean;
  recordable: boolean;
  fatality: boolean;
  daysLost: number | null;
  /** Absent on most documents. */
  hidden?: boolean;
}

/** The UTC calendar year as [Jan 1 00:00Z, next Jan 1 00:00Z). */
export const yearWindow = (year: number) => ({ start: new Date(Date.UTC(year, 0, 1)), end: new Date(Date.UTC(year + 1, 0, 1)) });

/** Aggregation queries in flight at once, per report (as the KPI rollup). */
const CONCURRENCY = 16;

export interface PlannedQuery {
  /** +1 for all matching incidents, -1 for the hidden ones among them. */
  sign: 1 | -1;
  aggregation: Aggregation;
}

/**
 * The queries of one selection. "personType in [...]" and "type in [...]" become one query per
 * (person type, incident type) pair, added up: equality filters and the year's range only, so
 * each shape needs exactly one composite index, where `in` would multiply them. Hidden incidents
 * are subtracted with the same query plus `hidden == true`, because a `hidden != true` filter
 * would drop every document that lacks the field (most of them).
 */
export function selectionQueries(select: IncidentSelection, year: number): PlannedQuery[] {
  const { start, end } = yearWindow(year);
  const range: Filter[] = [
    ["eventDate", ">=", start],
    ["eventDate", "<", end],
  ];
  const sum = select.measure === "daysLost" ? { sum: "daysLost" } : {};
  const types: ReadonlyArray<string | null> = select.types ?? [null];
  return select.personTypes.flatMap((personType) =>
    types.flatMap((type): PlannedQuery[] => {
      const equalities: Filter[] = [
        ["workRelated", "==", true],
        ["recordable", "==", true],
        ["personType", "==", personType],
        ...(type ? [["type", "==", type] as Filter] : []),
        ...(select.fatalOnly ? [["fatality", "==", true] as Filter] : []),
      ];
      return [
        { sign: 1, aggregation: { collection: "incidents", filters: [...equalities, ...range], ...sum } },
        { sign: -1, aggregation: { collection: "incidents", filters: [...equalities, ["hidden", "==", true], ...range], ...sum } },
      ];
    }),
  );
}

/** Hours worked in the year: every source of the twelve `YYYY-MM` months, one sum. */
export const hoursAggregation = (year: number): Aggregation => ({
  collection: "workedHours",
  filters: [
    ["month", ">=", monthKey(year, 0)],
    ["month", "<=", monthKey(year, 11)],
  ],
  sum: "hours",
});

export type AggregateFn = typeof aggregate;

/** Production: a fixed number of aggregation queries per report, whatever the number of incidents. */
export async function evaluateByQueries(companyId: string, year: number, stats: AggregateStats, run: AggregateFn = aggregate): Promise<IncidentValues> {
  const limit = createLimiter(CONCURRENCY);
  const definitions = incidentDatapoints();
  const values = await Promise.all(
    definitions.map(async (d) => {
      const parts = await Promise.all(selectionQueries(d.select, year).map(async (q) => q.sign * (await limit(() => run(companyId, q.aggregation, stats)))));
      return parts.reduce((a, b) => a + b, 0);
    }),
  );
  return Object.fromEntries(definitions.map((d, i) => [d.id, values[i]]));
}

/** The same definitions over a list: what each datapoint means, stated directly. */
export function evaluateInMemory(incidents: readonly IncidentFacts[], year: number): IncidentValues {
  const { start, end } = yearWindow(year);
  const inYear = (date: Date | null) => date !== null && date.getTime() >= start.getTime() && date.getTime() < end.getTime();
  const selected = (s: IncidentSelection) => (i: IncidentFacts) =>
    i.hidden !== true &&
    i.workRelated === true &&
    i.recordable === true &&
    inYear(i.eventDate) &&
    (s.personTypes as readonly string[]).includes(i.personType ?? "") &&
    (!s.types || (s.types as readonly string[]).includes(i.type ?? "")) &&
    (!s.fatalOnly || i.fatality === true);
  return Object.fromEntries(
    incidentDatapoints().map((d) => {
      const matching = incidents.filter(selected(d.select));
      // Firestore's sum skips documents whose field is not a number: so does this.
      const value = d.select.measure === "count" ? matching.length : matching.reduce((total, i) => total + (typeof i.daysLost === "number" ? i.daysLost : 0), 0);
      return [d.id, value];
    }),
  );
}

/** Every aggregation a report issues (the index test checks each shape is declared). */
export function esrsAggregations(year = 2000): Aggregation[] {
  return [...incidentDatapoints().flatMap((d) => selectionQueries(d.select, year).map((q) => q.aggregation)), hoursAggregation(year)];
}
