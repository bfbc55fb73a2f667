import { DEFAULT_REPORTING, reportingPeriod } from "../../lib/period";
import { createLimiter } from "../../lib/pool";
import { aggregate, matchesFilters, summable, type AggregateStats, type Aggregation, type Filter } from "../../repos/aggregates";
import { readHiddenIncidents } from "../../repos/incidents";
import { incidentDatapoints, type CaseKind, type IncidentSelection } from "./datapoints";
import type { IncidentValues, Window } from "./evaluate";

/**
 * The incident datapoints as Firestore aggregation queries: a fixed number per report, whatever
 * the number of incidents. Each selection of evaluate.ts (`s1Case`) is rewritten as a signed sum
 * of queries with equality filters on `true`/text values and one date range (inclusion and
 * exclusion), because Firestore has no OR across fields and no "field is absent or false". Hidden
 * incidents are not filtered by the queries: they are read once and those matching a query's
 * filters subtracted (repos/incidents.ts says why no filter can do it).
 */
const CONCURRENCY = 16;

const FATAL: Filter = ["fatality", "==", true];
const RECORDABLE: Filter = ["recordable", "==", true];
const ILL: Filter = ["type", "==", "ill_health"];
const INJURY: Filter = ["type", "==", "injury"];
type DateField = "eventDate" | "reportedAt";

interface Term {
  sign: 1 | -1;
  equalities: Filter[];
  date: DateField;
}
const term = (sign: 1 | -1, equalities: Filter[], date: DateField): Term => ({ sign, equalities, date });

/**
 * Injury cases (by event date): (type injury ∧ recordable) ∪ (fatal ∧ type ≠ ill_health)
 *   = [injury, recordable] + [fatal] − [fatal, ill_health] − [injury, recordable, fatal].
 * Ill-health cases (by report date): type ill_health ∧ (recordable ∪ fatal)
 *   = [ill_health, recordable] + [ill_health, fatal] − [ill_health, recordable, fatal].
 */
function kindTerms(kind: CaseKind, fatalOnly: boolean): Term[] {
  if (kind === "injury") {
    return fatalOnly
      ? [term(1, [FATAL], "eventDate"), term(-1, [FATAL, ILL], "eventDate")]
      : [term(1, [INJURY, RECORDABLE], "eventDate"), term(1, [FATAL], "eventDate"), term(-1, [FATAL, ILL], "eventDate"), term(-1, [INJURY, RECORDABLE, FATAL], "eventDate")];
  }
  return fatalOnly ? [term(1, [ILL, FATAL], "reportedAt")] : [term(1, [ILL, RECORDABLE], "reportedAt"), term(1, [ILL, FATAL], "reportedAt"), term(-1, [ILL, RECORDABLE, FATAL], "reportedAt")];
}

export interface PlannedQuery {
  sign: 1 | -1;
  aggregation: Aggregation;
}

/** The queries of one selection, one per person type and term; filters in a canonical order so equal queries are run once. */
export function selectionQueries(select: IncidentSelection, period: Window): PlannedQuery[] {
  return select.personTypes.flatMap((personType) =>
    select.kinds.flatMap((kind) =>
      kindTerms(kind, select.fatalOnly === true).map((t): PlannedQuery => {
        const equalities = [["workRelated", "==", true] as Filter, ["personType", "==", personType] as Filter, ...t.equalities].sort(([a], [b]) => a.localeCompare(b));
        const filters: Filter[] = [...equalities, [t.date, ">=", period.start], [t.date, "<", period.end]];
        return { sign: t.sign, aggregation: { collection: "incidents", filters, ...(select.measure === "daysLost" ? { sum: "daysLost" } : {}) } };
      }),
    ),
  );
}

export type AggregateFn = typeof aggregate;
export type ReadHiddenFn = typeof readHiddenIncidents;

/** Production: the aggregations (each distinct one once), minus the hidden incidents each one matched. */
export async function evaluateByQueries(companyId: string, period: Window, stats: AggregateStats, run: AggregateFn = aggregate, readHidden: ReadHiddenFn = readHiddenIncidents): Promise<IncidentValues> {
  const limit = createLimiter(CONCURRENCY);
  const hidden = readHidden(companyId, stats);
  const cache = new Map<string, Promise<number>>();
  const visible = (spec: Aggregation): Promise<number> => {
    const key = JSON.stringify(spec);
    let value = cache.get(key);
    if (!value) {
      value = Promise.all([limit(() => run(companyId, spec, stats)), hidden]).then(([all, docs]) =>
        docs.filter((d) => matchesFilters(d, spec.filters)).reduce((rest, d) => rest - (spec.sum ? summable(d[spec.sum]) : 1), all),
      );
      cache.set(key, value);
    }
    return value;
  };
  const definitions = incidentDatapoints();
  const values = await Promise.all(
    definitions.map(async (d) => {
      const parts = await Promise.all(selectionQueries(d.select, period).map(async (q) => q.sign * (await visible(q.aggregation))));
      return parts.reduce((a, b) => a + b, 0);
    }),
  );
  return Object.fromEntries(definitions.map((d, i) => [d.id, values[i]]));
}

/** Every aggregation a report issues (the index test checks each shape is declared). */
export function esrsAggregations(period: Window = reportingPeriod(2000, DEFAULT_REPORTING)): Aggregation[] {
  return incidentDatapoints().flatMap((d) => selectionQueries(d.select, period).map((q) => q.aggregation));
}
