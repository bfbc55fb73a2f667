import { DEFAULT_REPORTING, recentZonedMonths, reportingPeriod } from "../../src/lib/period";
import type { Aggregation } from "../../src/repos/aggregates";
import { caseQueries } from "../../src/services/esrs/queries";
import { areaQueries, ROLLUP_AREAS, workedHoursQueries } from "../../src/services/kpiRollup";

/**
 * The composite indexes Firestore needs for the queries the code builds, worked out the way
 * Firestore plans them: the index tests compare them with firestore.indexes.json (the emulator
 * does not enforce composite indexes; production refuses a query without its index).
 */
export interface IndexNeed {
  collectionGroup: string;
  fields: Array<{ fieldPath: string; order: "ASCENDING" | "DESCENDING" }>;
}

/**
 * An ordered list query (rangeQuery.ts): equality filters, then the order field; null when the
 * order field's single-field index serves it (no equality).
 */
export function indexNeed(
  collectionGroup: string,
  order: string,
  equality?: string | string[],
  direction: "asc" | "desc" = "asc",
): IndexNeed | null {
  const equalities = typeof equality === "string" ? [equality] : [...(equality ?? [])].sort();
  if (!equalities.length) return null;
  return {
    collectionGroup,
    fields: [
      ...equalities.map((fieldPath) => ({ fieldPath, order: "ASCENDING" as const })),
      { fieldPath: order, order: direction === "asc" ? "ASCENDING" : "DESCENDING" },
    ],
  };
}

/**
 * An aggregation, or null when single-field indexes serve it (equality filters alone are merged
 * from single-field indexes). Otherwise: the equality fields in alphabetical order, then the
 * range field, then the summed field (a sum is computed from index entries, so its field must be
 * in the index).
 */
export function aggregationIndexNeed(spec: Aggregation): IndexNeed | null {
  const equalities = [
    ...new Set(spec.filters.filter(([, op]) => op === "==").map(([field]) => field)),
  ].sort();
  const ranges = [...new Set(spec.filters.filter(([, op]) => op !== "==").map(([field]) => field))];
  const fields = [...equalities, ...ranges, ...(spec.sum ? [spec.sum] : [])];
  if (fields.length < 2 || (!ranges.length && !spec.sum)) return null;
  return {
    collectionGroup: spec.collection,
    fields: fields.map((fieldPath) => ({ fieldPath, order: "ASCENDING" as const })),
  };
}

/** The distinct composite indexes of a set of aggregations. */
export function indexNeedsOf(specs: readonly Aggregation[]): IndexNeed[] {
  const needs = specs.flatMap((spec) => aggregationIndexNeed(spec) ?? []);
  return [...new Map(needs.map((need) => [JSON.stringify(need), need] as const)).values()];
}

/**
 * The ESRS report's incident queries, as production builds them (`caseQueries`, which
 * `readCases` runs over `incidents`); their shape is the same whatever the period.
 */
export const esrsQueryShapes = (): Aggregation[] =>
  caseQueries(reportingPeriod(2000, DEFAULT_REPORTING)).map((filters) => ({
    collection: "incidents",
    filters,
  }));

/** Every aggregation shape a KPI rollup runs, from the builders the rollup runs them through. */
export function rollupAggregations(): Aggregation[] {
  const months = recentZonedMonths(new Date(0), 1, "UTC");
  const hours = workedHoursQueries(months);
  return [
    ...Object.values(ROLLUP_AREAS).flatMap((area) => {
      const queries = areaQueries(area, months);
      const grouped = area.groups.map((field) => queries.byValue(field, ""));
      return [queries.total, ...queries.perMonth, ...grouped];
    }),
    hours.total,
    ...hours.perMonth,
    hours.api,
  ];
}
