import type { CoverageDoc } from "../../src/repos/coverage";
import { esrsCsv, esrsCsvFilename } from "../../src/services/esrs/csv";
import { DATAPOINTS } from "../../src/services/esrs/datapoints";
import { indexNeedsOf } from "../../src/repos/aggregates";
import { esrsAggregations, evaluateByQueries, evaluateInMemory, type AggregateFn, type IncidentFacts } from "../../src/services/esrs/evaluate";
import { buildRows, type EsrsRow } from "../../src/services/esrs/report";
import { FIXTURE, YEAR } from "../../src/testing/esrsFixture";

/**
 * ESRS S1-14 without Firestore: a fixture whose every datapoint is worked out by hand below.
 * test/emulator/esrs.test.ts seeds the same fixture and compares the aggregation queries with it.
 */


const EXPECTED_INCIDENTS = {
  "S1-14_02": 2, // 2, 14
  "S1-14_03": 1, // 15
  "S1-14_04": 5, // 1, 2, 5, 8, 12
  "S1-14_06": 1, // 3
  "S1-14_07": 21, // 5 + 2 + 10 + 3 + 1
  "S1-14_08": 2, // 13, 14
  "S1-14_09": 17, // 8 + 9 + 0
};
const HOURS = 210_000;
const COVERAGE: CoverageDoc = { headcount: 300, coveredHeadcount: 250, auditedHeadcount: 100, certificationStandards: ["ISO 45001", "SCC"] };

const byId = (rows: EsrsRow[]) => Object.fromEntries(rows.map((r) => [r.datapoint_id, r]));
const rows = (overrides: Partial<Parameters<typeof buildRows>[1]> = {}) => byId(buildRows(YEAR, { incidents: evaluateInMemory(FIXTURE, YEAR), hours: HOURS, coverage: COVERAGE, ...overrides }));

/** Firestore's filter semantics over plain objects: what the aggregation queries would answer. */
function listAggregate(docs: readonly IncidentFacts[]): AggregateFn {
  const matches = (actual: unknown, op: string, value: unknown) => {
    if (op === "==") return actual === value;
    const [a, b] = actual instanceof Date && value instanceof Date ? [actual.getTime(), value.getTime()] : [actual, value];
    if (typeof a !== typeof b || (typeof a !== "number" && typeof a !== "string")) return false;
    return op === ">=" ? a >= (b as typeof a) : op === ">" ? a > (b as typeof a) : op === "<" ? a < (b as typeof a) : a <= (b as typeof a);
  };
  return async (_companyId, spec, stats) => {
    stats.queries++;
    const hits = docs.map((d) => d as unknown as Record<string, unknown>).filter((d) => spec.filters.every(([field, op, value]) => matches(d[field], op, value)));
    return spec.sum ? hits.reduce((t, d) => t + (typeof d[spec.sum!] === "number" ? (d[spec.sum!] as number) : 0), 0) : hits.length;
  };
}

describe("ESRS S1-14 definitions", () => {
  it("has the eleven datapoints in order, unique names, a unit and a one-sentence methodology each", () => {
    expect(DATAPOINTS.map((d) => d.id)).toEqual(Array.from({ length: 11 }, (_, i) => `S1-14_${String(i + 1).padStart(2, "0")}`));
    expect(new Set(DATAPOINTS.map((d) => d.name)).size).toBe(11);
    for (const name of ["work_related_fatalities", "recordable_work_related_accidents", "rate_of_recordable_work_related_accidents", "days_lost_to_work_related_injuries"]) {
      expect(DATAPOINTS.map((d) => d.name)).toContain(name);
    }
    for (const d of DATAPOINTS) expect(d.methodology).toMatch(/^[A-Z][^]*\.$/);
  });
});

describe("the evaluators", () => {
  it("in memory: each incident datapoint matches the hand-computed fixture", () => {
    expect(evaluateInMemory(FIXTURE, YEAR)).toEqual(EXPECTED_INCIDENTS);
  });

  it("as aggregation queries (over Firestore's filter semantics): the same numbers, hidden ones subtracted", async () => {
    const stats = { queries: 0, documentsRead: 0 };
    expect(await evaluateByQueries("c", YEAR, stats, listAggregate(FIXTURE))).toEqual(EXPECTED_INCIDENTS);
    expect(stats.queries).toBe(22);
  });

  it("runs as many queries for ten times the incidents, and counts ten times as many", async () => {
    const stats = { queries: 0, documentsRead: 0 };
    const values = await evaluateByQueries("c", YEAR, stats, listAggregate(Array.from({ length: 10 }, () => FIXTURE).flat()));
    expect(stats.queries).toBe(22);
    expect(values["S1-14_04"]).toBe(50);
    expect(values["S1-14_07"]).toBe(210);
  });

  it("its query shapes need seven composite indexes (equalities, eventDate, summed field; test/unit/indexes.test.ts checks them)", () => {
    const needs = indexNeedsOf(esrsAggregations());
    expect(needs).toHaveLength(7);
    expect(needs).toContainEqual({
      collectionGroup: "incidents",
      fields: ["hidden", "personType", "recordable", "type", "workRelated", "eventDate", "daysLost"].map((fieldPath) => ({ fieldPath, order: "ASCENDING" })),
    });
  });
});

describe("the rows", () => {
  it("every datapoint of the fixture, with its unit", () => {
    const r = rows();
    const values = Object.fromEntries(Object.values(r).map((row) => [row.datapoint_id, [row.value, row.unit]]));
    expect(values).toEqual({
      "S1-14_01": [83.33, "percent"], // 250 / 300
      "S1-14_02": [2, "count"],
      "S1-14_03": [1, "count"],
      "S1-14_04": [5, "count"],
      "S1-14_05": [23.81, "per_million_hours"], // 5 / 210,000 × 1,000,000 = 23.8095…
      "S1-14_06": [1, "count"],
      "S1-14_07": [21, "days"],
      "S1-14_08": [2, "count"],
      "S1-14_09": [17, "days"],
      "S1-14_10": [33.33, "percent"], // 100 / 300
      "S1-14_11": ["ISO 45001, SCC", "text"],
    });
    expect(r["S1-14_05"]).toMatchObject({ esrs_paragraph: "ESRS S1 88 (c)", name: "rate_of_recordable_work_related_accidents" });
    for (const row of Object.values(r)) expect(row.note).not.toMatch(/Not reported/);
  });

  it("no hours recorded: the rate is null and the note says why (never a division by zero)", () => {
    const r = rows({ hours: 0 });
    expect(r["S1-14_05"].value).toBeNull();
    expect(r["S1-14_05"].note).toMatch(/Not reported: no worked hours are recorded for 2025/);
    expect(r["S1-14_04"].value).toBe(5);
  });

  it("no coverage data: the coverage rows and the standards are null with a note; the incident rows are unaffected", () => {
    const r = rows({ coverage: null });
    for (const id of ["S1-14_01", "S1-14_10", "S1-14_11"]) {
      expect(r[id].value).toBeNull();
      expect(r[id].note).toMatch(/Not reported: no health and safety coverage data is recorded for 2025/);
    }
    expect(r["S1-14_02"].value).toBe(2);
  });

  it("headcount zero, an audited headcount missing, no standards: null with the reason", () => {
    const zero = rows({ coverage: { ...COVERAGE, headcount: 0 } });
    expect([zero["S1-14_01"].value, zero["S1-14_10"].value]).toEqual([null, null]);
    expect(zero["S1-14_01"].note).toMatch(/headcount for 2025 is missing or zero/);
    const partial = rows({ coverage: { ...COVERAGE, auditedHeadcount: null, certificationStandards: [] } });
    expect(partial["S1-14_01"].value).toBe(83.33);
    expect(partial["S1-14_10"].note).toMatch(/audited or certified headcount for 2025 is not recorded/);
    expect(partial["S1-14_11"]).toMatchObject({ value: null, note: expect.stringMatching(/no certification standards are recorded/) });
  });
});

describe("the CSV", () => {
  it("a header, then one CRLF-terminated row per datapoint with the JSON's values", () => {
    const csv = esrsCsv(Object.values(rows({ hours: 0 })));
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("datapoint_id,esrs_paragraph,name,value,unit,note");
    expect(lines).toHaveLength(13); // header, 11 rows, and the empty string after the last CRLF
    expect(lines[12]).toBe("");
    expect(lines[5]).toMatch(/^S1-14_05,ESRS S1 88 \(c\),rate_of_recordable_work_related_accidents,,per_million_hours,/);
    expect(lines[1]).toMatch(/^S1-14_01,ESRS S1 88 \(a\),coverage_by_health_and_safety_management_system,83\.33,percent,/);
    expect(csv.charCodeAt(0)).not.toBe(0xfeff);
  });

  it("quotes commas, quotes and line breaks (RFC 4180) and defuses spreadsheet formulas", () => {
    const row = (value: EsrsRow["value"], note: string): EsrsRow => ({ datapoint_id: "X", esrs_paragraph: "P", name: "n", value, unit: "text", note });
    const csv = esrsCsv([
      row("=HYPERLINK(\"http://evil.example\")", "+cmd|' /C calc'!A0"),
      row("ISO 45001, SCC", 'said "no",\nthen left\r\nfor good'),
      row("@SUM(A1)", "-2+3"),
      row(null, "plain"),
    ]);
    expect(csv.split("\r\n").slice(1).join("\r\n")).toBe(
      [
        `X,P,n,"'=HYPERLINK(""http://evil.example"")",text,'+cmd|' /C calc'!A0`,
        `X,P,n,"ISO 45001, SCC",text,"said ""no"",\nthen left\r\nfor good"`,
        `X,P,n,'@SUM(A1),text,'-2+3`,
        "X,P,n,,text,plain",
        "",
      ].join("\r\n"),
    );
  });

  it("names the file after the company (made safe) and the year", () => {
    expect(esrsCsvFilename("co-1_A", 2025)).toBe("esrs-s1-14-co-1_A-2025.csv");
    expect(esrsCsvFilename('a"b\r\n/ü', 2024)).toBe("esrs-s1-14-a_b____-2024.csv");
  });
});
