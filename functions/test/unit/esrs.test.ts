import { DEFAULT_REPORTING, reportingPeriod, type ReportingSettings } from "../../src/lib/period";
import { indexNeedsOf, matchesFilters, summable } from "../../src/repos/aggregates";
import { isHiddenValue } from "../../src/repos/incidents";
import { DATAPOINTS, TOTALS } from "../../src/services/esrs/datapoints";
import { evaluateInMemory, type IncidentFacts } from "../../src/services/esrs/evaluate";
import { esrsAggregations, evaluateByQueries, type AggregateFn, type ReadHiddenFn } from "../../src/services/esrs/queries";
import { APRIL_LONDON, BERLIN, FIXTURE, YEAR } from "../support/esrsFixture";

/**
 * The S1-14 incident datapoints of the fixture (test/support/esrsFixture.ts), worked out by hand
 * below incident by incident (#n), under three reporting periods; the aggregation plan must
 * give exactly the in-memory evaluator's numbers. Rows, notes and CSV: esrsRows.test.ts.
 */

/** Calendar 2025 in Berlin: [2024-12-31T23:00Z, 2025-12-31T23:00Z). */
const BERLIN_2025 = {
  "S1-14_02": 5, // #2, #19 (fatal, not recordable), #25 (employees); #14, #20 (fatal dangerous occurrence) — #7 hidden, #17 visitor
  "S1-14_03": 1, // #15
  "S1-14_04": 11, // the two below
  "S1-14_06": 3, // #3, #21 (onset 2023, reported 2025), #25 — not #22 (reported 2026)
  "S1-14_07": 52, // injuries #1 5 + #2 2 + #4 7 + #6 4 + #8 1 + #19 0 + #24 2 + #26 6 + #27 1 = 28; ill health #3 10 + #21 14 + #25 0 = 24
  "S1-14_08": 2, // #13, #14
  "S1-14_09": 17, // #12 8 + #20 0 + #13 9 + #14 0
  "S1-14_02.employee": 3, // #2, #19, #25
  "S1-14_02.non_employee": 2, // #14, #20
  "S1-14_02.injury": 3, // #2, #19, #20
  "S1-14_02.ill_health": 2, // #14, #25
  "S1-14_04.employee": 9, // #1, #2, #4 (00:30 local on 1 Jan), #6, #8, #19, #24 (hidden: null), #26, #27 — not #10, #11, #23 ("true")
  "S1-14_04.non_employee": 2, // #12, #20 — not #5 (00:30 local on 1 Jan 2026)
};

/** Calendar 2025 in UTC: #4 falls out (2024-12-31T23:30Z), #5 comes in (non-employee, 3 days). */
const UTC_2025 = {
  ...BERLIN_2025,
  "S1-14_07": 45, // 52 − 7 (#4)
  "S1-14_09": 20, // 17 + 3 (#5)
  "S1-14_04.employee": 8,
  "S1-14_04.non_employee": 3,
};

/** The April year 2025 in London (BST): [2025-03-31T23:00Z, 2026-03-31T23:00Z). */
const APRIL_2025 = {
  "S1-14_02": 5, // #2, #19, #25 (reported 2025-04-21), #14, #20
  "S1-14_03": 1, // #15
  "S1-14_04": 9,
  "S1-14_06": 2, // #22 (reported 2026-01-15), #25 — not #3, #21 (reported before April)
  "S1-14_07": 18, // injuries #2 2 + #6 4 + #8 1 + #19 0 + #24 2 + #26 6 = 15; ill health #22 3 + #25 0
  "S1-14_08": 2, // #13, #14
  "S1-14_09": 20, // #12 8 + #20 0 + #5 3 + #13 9 + #14 0
  "S1-14_02.employee": 3,
  "S1-14_02.non_employee": 2,
  "S1-14_02.injury": 3,
  "S1-14_02.ill_health": 2,
  "S1-14_04.employee": 6, // #2, #6, #8, #19, #24, #26 (00:30 on 1 April local) — not #1, #4, #27 (23:30 on 31 March local)
  "S1-14_04.non_employee": 3, // #12, #20, #5
};

/** Firestore's filter semantics over plain objects: what the aggregation queries would answer. */
function listAggregate(docs: readonly IncidentFacts[]): AggregateFn {
  return async (_companyId, spec, stats) => {
    stats.queries++;
    const hits = docs.map((d) => d as unknown as Record<string, unknown>).filter((d) => matchesFilters(d, spec.filters));
    return spec.sum ? hits.reduce((t, d) => t + summable(d[spec.sum ?? ""]), 0) : hits.length;
  };
}
function listHidden(docs: readonly IncidentFacts[]): ReadHiddenFn {
  return async (_companyId, stats) => {
    stats.queries++;
    const hidden = docs.filter((d) => isHiddenValue(d.hidden)).map((d) => ({ ...d }));
    stats.documentsRead += hidden.length;
    return hidden;
  };
}

const cases: Array<[string, ReportingSettings, Record<string, number>]> = [
  ["Berlin, calendar year", BERLIN, BERLIN_2025],
  ["UTC, calendar year", DEFAULT_REPORTING, UTC_2025],
  ["London, year from April", APRIL_LONDON, APRIL_2025],
];

describe("ESRS S1-14 definitions", () => {
  it("the eleven total rows in order, then the breakdowns; unique names and a methodology each", () => {
    expect(TOTALS.map((d) => d.id)).toEqual(Array.from({ length: 11 }, (_, i) => `S1-14_${String(i + 1).padStart(2, "0")}`));
    expect(DATAPOINTS.slice(11).map((d) => d.id)).toEqual([
      "S1-14_02.employee",
      "S1-14_02.non_employee",
      "S1-14_02.injury",
      "S1-14_02.ill_health",
      "S1-14_04.employee",
      "S1-14_04.non_employee",
      "S1-14_05.employee",
      "S1-14_05.non_employee",
    ]);
    expect(new Set(DATAPOINTS.map((d) => d.name)).size).toBe(DATAPOINTS.length);
    for (const d of DATAPOINTS) expect(d.methodology).toMatch(/^[A-Z][^]*\.$/);
    for (const d of DATAPOINTS.slice(11)) expect(d.breakdown?.of).toBe(d.id.split(".")[0]);
  });
});

describe.each(cases)("the evaluators, %s", (_label, settings, expected) => {
  const period = reportingPeriod(YEAR, settings);

  it("in memory: each incident datapoint matches the hand-computed fixture", () => {
    expect(evaluateInMemory(FIXTURE, period)).toEqual(expected);
  });

  it("as aggregation queries (Firestore's filter semantics), hidden ones subtracted: the same numbers", async () => {
    const stats = { queries: 0, documentsRead: 0 };
    expect(await evaluateByQueries("c", period, stats, listAggregate(FIXTURE), listHidden(FIXTURE))).toEqual(expected);
    // 31 distinct aggregations (14 per own-workforce person type, 3 for other workers) + the hidden read.
    expect(stats).toEqual({ queries: 32, documentsRead: 2 }); // #7 (true) and #23 ("true")
  });
});

describe("the cost", () => {
  it("as many queries for ten times the incidents, ten times the counts; reads only the hidden ones", async () => {
    const tenfold = Array.from({ length: 10 }, () => FIXTURE).flat();
    const stats = { queries: 0, documentsRead: 0 };
    const values = await evaluateByQueries("c", reportingPeriod(YEAR, BERLIN), stats, listAggregate(tenfold), listHidden(tenfold));
    expect(stats).toEqual({ queries: 32, documentsRead: 20 });
    expect(values["S1-14_04"]).toBe(110);
    expect(values["S1-14_07"]).toBe(520);
  });

  it("its query shapes need fourteen composite indexes (test/unit/indexes.test.ts checks them)", () => {
    const needs = indexNeedsOf(esrsAggregations());
    expect(needs).toHaveLength(14);
    expect(needs).toContainEqual({
      collectionGroup: "incidents",
      fields: ["fatality", "personType", "recordable", "type", "workRelated", "reportedAt", "daysLost"].map((fieldPath) => ({ fieldPath, order: "ASCENDING" })),
    });
  });
});

describe("Firestore's filter semantics, as the hidden subtraction applies them", () => {
  const at = new Date("2025-06-01T00:00:00Z");
  it("== matches equal values of the same type only; ranges compare like types only", () => {
    expect(matchesFilters({ a: true }, [["a", "==", true]])).toBe(true);
    expect(matchesFilters({ a: "true" }, [["a", "==", true]])).toBe(false);
    expect(matchesFilters({ d: at }, [["d", ">=", new Date("2025-01-01")], ["d", "<", new Date("2026-01-01")]])).toBe(true);
    expect(matchesFilters({ d: at.getTime() }, [["d", ">=", new Date(0)]])).toBe(false);
    expect(matchesFilters({ d: null }, [["d", "<", at]])).toBe(false);
    expect(matchesFilters({}, [["m", "==", "2025-01"]])).toBe(false);
  });

  it("hidden: absent, null and false show; anything else hides", () => {
    expect([undefined, null, false].map(isHiddenValue)).toEqual([false, false, false]);
    expect([true, "true", "false", 1, 0, {}].map(isHiddenValue)).toEqual([true, true, true, true, true, true]);
  });
});
