import { Timestamp } from "firebase-admin/firestore";
import { DEFAULT_REPORTING, reportingPeriod, type ReportingSettings } from "../../src/lib/period";
import { matchesFilters } from "../../src/repos/aggregates";
import type { IncidentDoc } from "../../src/repos/incidents";
import { isHiddenValue } from "../../src/repos/stored";
import { DATAPOINTS, TOTALS } from "../../src/services/esrs/datapoints";
import { evaluateCases, type IncidentFacts } from "../../src/services/esrs/evaluate";
import { readCases, type ReadIncidentsFn } from "../../src/services/esrs/queries";
import { APRIL_LONDON, BERLIN, FIXTURE, inc, YEAR } from "../support/esrsFixture";
import { esrsQueryShapes, indexNeedsOf } from "../support/indexNeeds";

/**
 * The S1-14 incident datapoints of the fixture (test/support/esrsFixture.ts), worked out by hand
 * below incident by incident (#n), under three reporting periods; what the reading queries return
 * must give exactly the evaluator's numbers over all incidents. Rows, notes and CSV:
 * esrsRows.test.ts.
 */

/** Calendar 2025 in Berlin: [2024-12-31T23:00Z, 2025-12-31T23:00Z). */
const BERLIN_2025 = {
  "S1-14_02": 6, // #2, #19 (fatal, not recordable), #25, #28 (died 2025-02-10, reported 2023) (employees); #14, #20 (fatal dangerous occurrence) — #7 hidden, #17 visitor
  "S1-14_03": 1, // #15
  "S1-14_04": 14, // the two below
  "S1-14_06": 3, // #3, #21 (onset 2023, reported 2025), #25 — not #22 (reported 2026), #28 (reported 2023, though it died in 2025)
  // injuries #1 5 + #2 2 + #4 7 + #6 4 + #8 1 + #11 11 + #19 0 + #24 2 + #26 6 + #27 1 + #29 (−3:
  // none) 0 + #30 (2.5: none) 0 = 39; ill health #3 10 + #21 14 + #25 0 = 24 (#28 is a 2023 case)
  "S1-14_07": 63,
  "S1-14_08": 2, // #13, #14
  "S1-14_09": 17, // #12 8 + #20 0 + #13 9 + #14 0
  "S1-14_02.employee": 4, // #2, #19, #25, #28
  "S1-14_02.non_employee": 2, // #14, #20
  "S1-14_02.injury": 3, // #2, #19, #20
  "S1-14_02.ill_health": 3, // #14, #25, #28
  // #1, #2, #4 (00:30 local on 1 Jan), #6, #8, #11 (recordable dangerous occurrence), #19, #24
  // (hidden: null), #26, #27, #29, #30 — not #10, #23 ("true")
  "S1-14_04.employee": 12,
  "S1-14_04.non_employee": 2, // #12, #20 — not #5 (00:30 local on 1 Jan 2026)
};

/** Calendar 2025 in UTC: #4 falls out (2024-12-31T23:30Z), #5 comes in (non-employee, 3 days). */
const UTC_2025 = {
  ...BERLIN_2025,
  "S1-14_07": 56, // 63 − 7 (#4)
  "S1-14_09": 20, // 17 + 3 (#5)
  "S1-14_04.employee": 11,
  "S1-14_04.non_employee": 3,
};

/** The April year 2025 in London (BST): [2025-03-31T23:00Z, 2026-03-31T23:00Z). */
const APRIL_2025 = {
  "S1-14_02": 5, // #2, #19, #25 (reported 2025-04-21), #14, #20 — not #28 (died 2025-02-10, before April)
  "S1-14_03": 1, // #15
  "S1-14_04": 12,
  "S1-14_06": 2, // #22 (reported 2026-01-15), #25 — not #3, #21 (reported before April)
  "S1-14_07": 29, // injuries #2 2 + #6 4 + #8 1 + #11 11 + #19 0 + #24 2 + #26 6 + #29 0 + #30 0 = 26; ill health #22 3 + #25 0
  "S1-14_08": 2, // #13, #14
  "S1-14_09": 20, // #12 8 + #20 0 + #5 3 + #13 9 + #14 0
  "S1-14_02.employee": 3,
  "S1-14_02.non_employee": 2,
  "S1-14_02.injury": 3,
  "S1-14_02.ill_health": 2,
  "S1-14_04.employee": 9, // #2, #6, #8, #11, #19, #24, #26 (00:30 on 1 April local), #29, #30 — not #1, #4, #27 (23:30 on 31 March local)
  "S1-14_04.non_employee": 3, // #12, #20, #5
};

/**
 * Firestore's filter semantics over plain objects: what the five reading queries would return (ids
 * as positions); `stats` counts the queries and the documents they return.
 */
function listRead(
  docs: readonly IncidentFacts[],
  stats: { queries: number; documentsRead: number },
): ReadIncidentsFn {
  return async (_companyId, filterSets) => {
    const seen = new Map<number, IncidentDoc>();
    for (const filters of filterSets) {
      stats.queries++;
      docs.forEach((d, i) => {
        if (!matchesFilters(d as unknown as Record<string, unknown>, filters)) return;
        stats.documentsRead++;
        seen.set(i, asDoc(d, String(i + 1)));
      });
    }
    return [...seen.values()];
  };
}
const ts = (d: Date | null | undefined) => (d ? Timestamp.fromDate(d) : null);
const asDoc = (d: IncidentFacts, id: string) =>
  ({
    ...d,
    id,
    eventDate: ts(d.eventDate),
    reportedAt: ts(d.reportedAt),
    dateOfDeath: ts(d.dateOfDeath),
    hidden: isHiddenValue(d.hidden),
  }) as unknown as IncidentDoc;

const cases: Array<[string, ReportingSettings, Record<string, number>]> = [
  ["Berlin, calendar year", BERLIN, BERLIN_2025],
  ["UTC, calendar year", DEFAULT_REPORTING, UTC_2025],
  ["London, year from April", APRIL_LONDON, APRIL_2025],
];

describe("ESRS S1-14 definitions", () => {
  it("the twelve total rows in order, then the breakdowns; unique names and a methodology each", () => {
    expect(TOTALS.map((d) => d.id)).toEqual(
      Array.from({ length: 12 }, (_, i) => `S1-14_${String(i + 1).padStart(2, "0")}`),
    );
    expect(DATAPOINTS.slice(12).map((d) => d.id)).toEqual([
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
    for (const d of DATAPOINTS.slice(12)) expect(d.breakdown?.of).toBe(d.id.split(".")[0]);
  });
});

describe.each(cases)("the evaluators, %s", (_label, settings, expected) => {
  const period = reportingPeriod(YEAR, settings);

  it("in memory: each incident datapoint matches the hand-computed fixture", () => {
    expect(evaluateCases(FIXTURE, period).values).toEqual(expected);
  });

  it("read by the five queries (Firestore's filter semantics), then evaluated: the same numbers, none missed", async () => {
    const stats = { queries: 0, documentsRead: 0 };
    const read = await readCases("c", period, listRead(FIXTURE, stats));
    expect(evaluateCases(read, period).values).toEqual(expected);
    expect(stats.queries).toBe(5);
  });
});

describe("the cost", () => {
  it("five queries whatever the data; incidents that cannot be cases (near misses, first aid, not work-related) are never read", async () => {
    const noise = Array.from({ length: 50 }, (_, i) => [
      inc("employee", "near_miss", "2025-05-01T00:00:00Z", 0, { recordable: false }),
      inc("employee", "injury", "2025-05-02T00:00:00Z", 0, { recordable: false }),
      inc("employee", "injury", "2025-05-03T00:00:00Z", i, { workRelated: false }),
    ]).flat();
    const stats = { queries: 0, documentsRead: 0 };
    const read = await readCases(
      "c",
      reportingPeriod(YEAR, BERLIN),
      listRead([...noise, ...FIXTURE], stats),
    );
    const alone = { queries: 0, documentsRead: 0 };
    await readCases("c", reportingPeriod(YEAR, BERLIN), listRead(FIXTURE, alone));
    expect(stats).toEqual(alone);
    expect(read.every((i) => i.workRelated && (i.recordable || i.fatality))).toBe(true);
  });

  it("its query shapes need five composite indexes (test/unit/indexes.test.ts checks them)", () => {
    const needs = indexNeedsOf(esrsQueryShapes());
    expect(needs).toHaveLength(5);
    expect(needs).toContainEqual({
      collectionGroup: "incidents",
      fields: ["fatality", "workRelated", "dateOfDeath"].map((fieldPath) => ({
        fieldPath,
        order: "ASCENDING",
      })),
    });
  });
});

describe("Firestore's filter semantics, as the hidden subtraction applies them", () => {
  const at = new Date("2025-06-01T00:00:00Z");
  it("== matches equal values of the same type only; ranges compare like types only", () => {
    expect(matchesFilters({ a: true }, [["a", "==", true]])).toBe(true);
    expect(matchesFilters({ a: "true" }, [["a", "==", true]])).toBe(false);
    expect(
      matchesFilters({ d: at }, [
        ["d", ">=", new Date("2025-01-01")],
        ["d", "<", new Date("2026-01-01")],
      ]),
    ).toBe(true);
    expect(matchesFilters({ d: at.getTime() }, [["d", ">=", new Date(0)]])).toBe(false);
    expect(matchesFilters({ d: null }, [["d", "<", at]])).toBe(false);
    expect(matchesFilters({}, [["m", "==", "2025-01"]])).toBe(false);
  });

  it("hidden: absent, null and false show; anything else hides", () => {
    expect([undefined, null, false].map(isHiddenValue)).toEqual([false, false, false]);
    expect([true, "true", "false", 1, 0, {}].map(isHiddenValue)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
