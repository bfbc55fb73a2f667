import { reportingPeriod } from "../../src/lib/period";
import { incidentShape } from "../../src/repos/incidents";
import { parseStored } from "../../src/repos/stored";
import { evaluateCases } from "../../src/services/esrs/evaluate";
import { periodStatus } from "../../src/services/esrs/periodStatus";
import { decimalsOf, roundHalfUp } from "../../src/services/esrs/publishing";
import { buildRows, type EsrsRow } from "../../src/services/esrs/rows";
import type { MonthHours } from "../../src/services/workedHours";
import { BERLIN, inc } from "../support/esrsFixture";
import { logger } from "../support/logger";

/**
 * One hand-worked fixture per rule of issue 27's "Figures": each number below is worked out in
 * its comment. The period is calendar 2025 in Berlin unless a test says otherwise.
 */
const warn = jest.spyOn(logger, "warn").mockImplementation(() => undefined);
const period = reportingPeriod(2025, BERLIN);
const AFTER = new Date("2026-06-01T00:00:00Z");
const month = (m: string, app: number, employees = 0, nonEmployees = 0): MonthHours => ({
  month: m,
  app,
  api: employees + nonEmployees,
  total: app + employees + nonEmployees,
  employees,
  nonEmployees,
  unattributed: app,
});
const hoursOf = (total: number): MonthHours[] =>
  period.months.map((m, i) => month(m, i === 0 ? total : 0));
const full = (total: number): MonthHours[] => period.months.map((m) => month(m, total / 12));

function rows(
  incidents: ReturnType<typeof inc>[],
  hours: MonthHours[],
  coverage = null as Parameters<typeof buildRows>[1]["coverage"],
) {
  const { values, basis } = evaluateCases(incidents, period);
  const built = buildRows(
    period,
    { incidents: values, basis, hours, coverage },
    periodStatus(period, hours, AFTER),
  );
  return Object.fromEntries(built.map((r) => [r.datapoint_id, r])) as Record<string, EsrsRow>;
}

describe("recordable cases filed under another type", () => {
  it("count as accidents (88 (c), AR 91), with their days, and the note says how many", () => {
    const incidents = [
      inc("employee", "dangerous_occurrence", "2025-05-05T10:00:00Z", 12, { id: "a" }), // recordable, not fatal
      inc("employee", "injury", "2025-05-06T10:00:00Z", 3, { id: "b" }),
      inc("employee", "near_miss", "2025-05-07T10:00:00Z", 0, { id: "c", recordable: false }), // not recordable: no case
    ];
    const byId = rows(incidents, full(1_000_000));
    expect(byId["S1-14_04"].value).toBe(2); // a, b
    expect(byId["S1-14_07"].value).toBe(15); // 12 + 3
    expect(byId["S1-14_05"].value).toBe(2); // 2 / 1,000,000 × 1,000,000
    expect(byId["S1-14_04"].note).toMatch(/Includes 1 case filed under another type than `injury`/);
    expect(evaluateCases(incidents, period).basis["S1-14_04"]).toEqual({
      incidents: ["a", "b"],
      filedAsOtherType: 1,
    });
  });
});

describe("ill-health deaths dated by when they happened", () => {
  // Reported in 2023, died on 10 February 2025.
  const late = inc("employee", "ill_health", "2023-03-01T00:00:00Z", 0, {
    fatality: true,
    reportedAt: new Date("2023-05-01T00:00:00Z"),
    dateOfDeath: new Date("2025-02-10T00:00:00Z"),
  });
  it("a 2025 death, a 2023 case", () => {
    expect(evaluateCases([late], period).values).toMatchObject({
      "S1-14_02": 1,
      "S1-14_02.ill_health": 1,
      "S1-14_06": 0,
    });
    const p2023 = reportingPeriod(2023, BERLIN);
    expect(evaluateCases([late], p2023).values).toMatchObject({ "S1-14_02": 0, "S1-14_06": 1 });
  });
  it("without a date of death: dated as its case (the report date)", () => {
    const undated = { ...late, dateOfDeath: null };
    expect(evaluateCases([undated], reportingPeriod(2023, BERLIN)).values).toMatchObject({
      "S1-14_02": 1,
      "S1-14_06": 1,
    });
    expect(evaluateCases([undated], period).values["S1-14_02"]).toBe(0);
  });
});

describe("days lost: whole days only (IG 3: an integer)", () => {
  it("7 and −3 give 7, not 4; 2.5 adds nothing; each case still counts", () => {
    const incidents = [
      inc("employee", "injury", "2025-03-01T10:00:00Z", 7),
      inc("employee", "injury", "2025-03-02T10:00:00Z", -3),
      inc("employee", "injury", "2025-03-03T10:00:00Z", 2.5),
    ];
    expect(evaluateCases(incidents, period).values).toMatchObject({ "S1-14_07": 7, "S1-14_04": 3 });
  });
  it("the stored reader reads a negative or fractional value as absent and logs it once per document", () => {
    warn.mockClear();
    expect(
      parseStored(incidentShape, "companies/c/incidents/neg", { daysLost: -3 }).daysLost,
    ).toBeNull();
    expect(
      parseStored(incidentShape, "companies/c/incidents/neg", { daysLost: -3 }).daysLost,
    ).toBeNull();
    expect(
      parseStored(incidentShape, "companies/c/incidents/frac", { daysLost: 2.5 }).daysLost,
    ).toBeNull();
    expect(parseStored(incidentShape, "companies/c/incidents/ok", { daysLost: 7 }).daysLost).toBe(
      7,
    );
    expect(warn.mock.calls).toEqual([
      [
        "stored.invalid_field",
        { event: "stored.invalid_field", document: "companies/c/incidents/neg", field: "daysLost" },
      ],
      [
        "stored.invalid_field",
        {
          event: "stored.invalid_field",
          document: "companies/c/incidents/frac",
          field: "daysLost",
        },
      ],
    ]);
  });
});

describe("rounding and decimals", () => {
  it("half up on the decimal form: 1.005 → 1.01 (Math.round(1.005 * 100) / 100 gives 1)", () => {
    expect(Math.round(1.005 * 100) / 100).toBe(1);
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(2.675, 2)).toBe(2.68);
    expect(roundHalfUp(-1.005, 2)).toBe(-1.01);
    expect(roundHalfUp(0.004, 5)).toBe(0.004);
    expect(roundHalfUp(4e-9, 10)).toBe(4e-9);
    expect(roundHalfUp(12.344999, 2)).toBe(12.34);
  });

  it("a coverage of 201 in 20,000 is 1.01 %, not 1 %", () => {
    const byId = rows([], full(1), {
      headcount: 20_000,
      coveredHeadcount: 201,
      auditedHeadcount: 0,
      certificationStandards: [],
    });
    expect(byId["S1-14_01"].value).toBe(1.01); // 201 / 20,000 × 100 = 1.005 → 1.01
    expect(byId["S1-14_10"].value).toBe(0);
  });

  it("one accident in 250 million hours is 0.004, not 0: rates keep three significant digits below 1", () => {
    const byId = rows([inc("employee", "injury", "2025-03-01T10:00:00Z", 0)], hoursOf(250_000_000));
    expect(byId["S1-14_05"].value).toBe(0.004); // 1 / 250,000,000 × 1,000,000
    expect(decimalsOf("per_million_hours", 0.004)).toBe(5);
    // 3 in 7,000,000 hours: 0.428571… → 0.429 (three significant digits)
    expect(
      rows(
        [1, 2, 3].map((d) => inc("employee", "injury", `2025-03-0${d}T10:00:00Z`, 0)),
        hoursOf(7_000_000),
      )["S1-14_05"].value,
    ).toBe(0.429);
    expect(decimalsOf("per_million_hours", 5.147)).toBe(2);
    expect([
      decimalsOf("count", 3),
      decimalsOf("days", 3),
      decimalsOf("percent", 83.33),
      decimalsOf("text", null),
    ]).toEqual([0, 0, 2, null]);
  });
});

describe("hours per worker category (AR 89) and the rate per group", () => {
  const accidents = [
    inc("employee", "injury", "2025-02-01T10:00:00Z", 0),
    inc("employee", "injury", "2025-03-01T10:00:00Z", 0),
    inc("non_employee", "injury", "2025-04-01T10:00:00Z", 0),
  ];
  it("every hour attributed: employees 800,000 h, non-employees 200,000 h; the rates per group and in total", () => {
    // Each month: employees 800,000 / 12, non-employees 200,000 / 12, nothing unattributed.
    const byId = rows(
      accidents,
      period.months.map((m) => month(m, 0, 800_000 / 12, 200_000 / 12)),
    );
    expect(byId["S1-14_05.employee"].value).toBe(2.5); // 2 / 800,000 × 1,000,000
    expect(byId["S1-14_05.non_employee"].value).toBe(5); // 1 / 200,000 × 1,000,000
    expect(byId["S1-14_05"].value).toBe(3); // 3 / 1,000,000 × 1,000,000
    expect(byId["S1-14_05"].note).toMatch(
      /whole own workforce, employees and non-employees, as the accidents counted are \(AR 89\)/,
    );
  });
  it("one unattributed hour: the per-group rates are null with the reason; the total rate stands", () => {
    const hours = period.months.map((m, i) =>
      month(m, i === 0 ? 1 : 0, 800_000 / 12, 200_000 / 12),
    );
    const byId = rows(accidents, hours);
    expect(byId["S1-14_05.employee"]).toMatchObject({
      value: null,
      note: expect.stringMatching(
        /Not reported: 1 hour of the period is not attributed to employees or non-employees/,
      ),
    });
    expect(byId["S1-14_05"].value).toBe(3); // 3 / 1,000,001 × 1,000,000 = 2.999997 → 3.00
  });
  it("no hours of one group: that group's rate is null", () => {
    const byId = rows(
      accidents,
      period.months.map((m) => month(m, 0, 1_000_000 / 12, 0)),
    );
    expect(byId["S1-14_05.non_employee"]).toMatchObject({
      value: null,
      note: expect.stringMatching(/no worked hours of non-employees are recorded/),
    });
    expect(byId["S1-14_05.employee"].value).toBe(2);
  });
});
