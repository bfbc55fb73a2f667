import { periodYearAt, reportingPeriod, zonedMonthStart } from "../../src/lib/period";
import { companyShape } from "../../src/repos/companies";
import type { CoverageDoc } from "../../src/repos/coverage";
import { readHoursRecord } from "../../src/repos/hoursRecords";
import { parseStored } from "../../src/repos/stored";
import { esrsCsv, esrsCsvFilename } from "../../src/services/esrs/csv";
import { evaluateCases } from "../../src/services/esrs/evaluate";
import { describePeriod, periodStatus } from "../../src/services/esrs/periodStatus";
import { buildRows, type EsrsRow } from "../../src/services/esrs/rows";
import { hoursByMonth } from "../../src/services/workedHours";
import {
  APRIL_LONDON,
  BERLIN,
  FIXTURE,
  HOURS_2025,
  HOURS_DOCS,
  YEAR,
} from "../support/esrsFixture";
import { logger } from "../support/logger";

/** The rows of the fixture's periods: values, notes, the incomplete-period marks and the CSV. */

const COVERAGE: CoverageDoc = {
  headcount: 300,
  coveredHeadcount: 250,
  auditedHeadcount: 100,
  certificationStandards: ["ISO 45001", "SCC"],
};
const warn = jest.spyOn(logger, "warn").mockImplementation(() => undefined);
/**
 * The worked-hours documents as the repo reads them (a malformed month or non-numeric hours is no
 * record).
 */
const RECORDS = HOURS_DOCS.flatMap(
  ([id, month, hours, source]) =>
    readHoursRecord(`companies/c/workedHours/${id}`, {
      month,
      hours,
      ...(source ? { source } : {}),
    }) ?? [],
);
const AFTER = new Date("2026-06-01T00:00:00Z");

function report(
  settings = BERLIN,
  overrides: { coverage?: CoverageDoc | null; now?: Date; records?: typeof RECORDS } = {},
) {
  const period = reportingPeriod(YEAR, settings);
  const hours = hoursByMonth(period.months, overrides.records ?? RECORDS);
  const status = periodStatus(period, hours, overrides.now ?? AFTER);
  const rows = buildRows(
    period,
    {
      incidents: evaluateCases(FIXTURE, period).values,
      hours,
      coverage: overrides.coverage === undefined ? COVERAGE : overrides.coverage,
    },
    status,
  );
  return {
    period,
    hours,
    status,
    rows,
    byId: Object.fromEntries(rows.map((r) => [r.datapoint_id, r])) as Record<string, EsrsRow>,
  };
}

describe("the reporting period", () => {
  it("Berlin's calendar 2025 starts and ends at local midnight; months are the calendar's", () => {
    const p = reportingPeriod(2025, BERLIN);
    expect([p.start.toISOString(), p.end.toISOString()]).toEqual([
      "2024-12-31T23:00:00.000Z",
      "2025-12-31T23:00:00.000Z",
    ]);
    expect(p.months).toEqual(
      Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, "0")}`),
    );
  });

  it("London's year from April 2025: BST midnight on 1 April, months 2025-04 … 2026-03", () => {
    const p = reportingPeriod(2025, APRIL_LONDON);
    expect([p.start.toISOString(), p.end.toISOString()]).toEqual([
      "2025-03-31T23:00:00.000Z",
      "2026-03-31T23:00:00.000Z",
    ]);
    expect([p.months[0], p.months[11]]).toEqual(["2025-04", "2026-03"]);
    expect(describePeriod(p)).toBe("2025-04-01 to 2026-03-31 (Europe/London)");
    expect(zonedMonthStart(2025, 0, "America/New_York").toISOString()).toBe(
      "2025-01-01T05:00:00.000Z",
    );
  });

  it("the period in progress is named by its start year, in local time", () => {
    expect(periodYearAt(new Date("2024-12-31T23:30:00Z"), BERLIN)).toBe(2025); // 00:30 on 1 January in Berlin
    expect(periodYearAt(new Date("2026-02-10T00:00:00Z"), APRIL_LONDON)).toBe(2025);
    expect(periodYearAt(new Date("2026-03-31T23:30:00Z"), APRIL_LONDON)).toBe(2026);
  });

  it("the company settings are read tolerantly: an unknown zone or a month out of range is the default", () => {
    const ok = parseStored(companyShape, "companies/a", {
      reportingTimeZone: "Europe/Berlin",
      financialYearStartMonth: 4,
    });
    expect([ok.reportingTimeZone, ok.financialYearStartMonth]).toEqual(["Europe/Berlin", 4]);
    const bad = parseStored(companyShape, "companies/b", {
      reportingTimeZone: "Mars/Olympus",
      financialYearStartMonth: 13,
    });
    expect([bad.reportingTimeZone, bad.financialYearStartMonth]).toEqual(["UTC", 1]);
    const absent = parseStored(companyShape, "companies/c", {});
    expect([absent.reportingTimeZone, absent.financialYearStartMonth]).toEqual(["UTC", 1]);
  });
});

describe("the rows", () => {
  it("a malformed month or non-numeric hours is no record, and is logged", () => {
    expect(RECORDS).toHaveLength(HOURS_DOCS.length - 2);
    expect(warn).toHaveBeenCalledWith("stored.invalid_field", {
      event: "stored.invalid_field",
      document: "companies/c/workedHours/bad-2025-05-15",
      field: "month",
    });
    expect(warn).toHaveBeenCalledWith("stored.invalid_field", {
      event: "stored.invalid_field",
      document: "companies/c/workedHours/bad-hours",
      field: "hours",
    });
  });

  it("Berlin 2025: every total row, then the breakdowns, with hand-computed values", () => {
    const { rows, hours } = report();
    // 12 × 100,000 + 1,500,000 + 20,000; not 2025-05-15, not "lots"
    expect(hours.reduce((s, m) => s + m.total, 0)).toBe(HOURS_2025.total);
    expect(hours.reduce((s, m) => s + m.app, 0)).toBe(HOURS_2025.app);
    expect(rows.map((r) => [r.datapoint_id, r.value, r.unit])).toEqual([
      ["S1-14_01", 83.33, "percent"], // 250 / 300
      ["S1-14_02", 6, "count"],
      ["S1-14_03", 1, "count"],
      ["S1-14_04", 14, "count"],
      ["S1-14_05", 5.15, "per_million_hours"], // 14 / 2,720,000 × 1,000,000 = 5.1470…
      ["S1-14_06", 3, "count"],
      ["S1-14_07", 63, "days"],
      ["S1-14_08", 2, "count"],
      ["S1-14_09", 17, "days"],
      ["S1-14_10", 33.33, "percent"], // 100 / 300
      ["S1-14_11", "ISO 45001, SCC", "text"],
      ["S1-14_12", null, "count"], // voluntary (AR 94), not collected: present all the same
      ["S1-14_02.employee", 4, "count"],
      ["S1-14_02.non_employee", 2, "count"],
      ["S1-14_02.injury", 3, "count"],
      ["S1-14_02.ill_health", 3, "count"],
      ["S1-14_04.employee", 12, "count"],
      ["S1-14_04.non_employee", 2, "count"],
      ["S1-14_05.employee", null, "per_million_hours"],
      ["S1-14_05.non_employee", null, "per_million_hours"],
    ]);
    expect(rows.slice(0, 12).every((r) => r.breakdown === null)).toBe(true);
    expect(rows[16].breakdown).toEqual({ of: "S1-14_04", by: "person_type", member: "employee" });
    expect(rows[18].note).toMatch(
      /Not reported: 2,720,000 hours of the period are not attributed to employees or non-employees/,
    );
  });

  it("a complete period: no incomplete mark; the notes state the period, the hours by source and the conventions", () => {
    const { byId, status } = report();
    expect(status).toEqual({ complete: true, inProgress: false, monthsWithoutHours: [] });
    for (const row of Object.values(byId))
      expect(row.note).not.toMatch(/Incomplete|Not reported: no/);
    expect(byId["S1-14_05"].note).toMatch(
      /Period: 2025-01-01 to 2025-12-31 \(Europe\/Berlin\)\. Hours worked in the period: 2,720,000 \(app 1,220,000, API 1,500,000\)\./,
    );
    expect(byId["S1-14_07"].note).toMatch(
      /calendar days .* not counting the day of the incident, booked in full to the period the case is dated in/,
    );
    expect(byId["S1-14_04"].note).toMatch(/or a death, whatever its `recordable` flag/);
    expect(byId["S1-14_06"].note).toMatch(/ill-health cases by when they were reported \(AR 94\)/);
    expect(byId["S1-14_07"].note).toMatch(/Phase-in \(ESRS 1 Appendix C\)/);
  });

  it("the April year 2025 in progress, two months without hours: marked in the status and in the notes", () => {
    const { byId, status } = report(APRIL_LONDON, { now: new Date("2026-03-10T00:00:00Z") });
    expect(status).toEqual({
      complete: false,
      inProgress: true,
      monthsWithoutHours: ["2026-02", "2026-03"],
    });
    // Hours 2025-04 … 2026-03: 9 × 100,000 + 1,500,000 + 20,000 + 40,000 (2026-01) = 2,460,000; 12
    // accidents.
    expect(byId["S1-14_05"].value).toBe(4.88); // 12 / 2,460,000 × 1,000,000 = 4.8780…
    expect(byId["S1-14_04"].value).toBe(12);
    expect(byId["S1-14_05"].note).toMatch(
      /Incomplete period 2025-04-01 to 2026-03-31 \(Europe\/London\): it has not ended yet \(year to date\); no worked hours are recorded for 2026-02, 2026-03\./,
    );
    expect(byId["S1-14_02"].note).toMatch(/Incomplete period/);
    expect(byId["S1-14_01"].note).not.toMatch(/Incomplete period/); // coverage is a headcount, not a period's sum
  });

  it("no hours recorded: the rate is null and the note says why (never a division by zero)", () => {
    const { byId, status } = report(BERLIN, { records: [] });
    expect(byId["S1-14_05"].value).toBeNull();
    expect(byId["S1-14_05"].note).toMatch(
      /Not reported: no worked hours are recorded for the 2025 period/,
    );
    expect(status.monthsWithoutHours).toHaveLength(12);
    expect(byId["S1-14_04"].value).toBe(14);
  });

  it("a covered or audited headcount above the headcount is null with the reason, never 106.67 %", () => {
    const { byId } = report(BERLIN, {
      coverage: { ...COVERAGE, coveredHeadcount: 320, auditedHeadcount: 300 },
    });
    expect(byId["S1-14_01"].value).toBeNull();
    expect(byId["S1-14_01"].note).toMatch(
      /Not reported: the covered headcount \(320\) for 2025 is not between 0 and the own-workforce headcount \(300\)/,
    );
    expect(byId["S1-14_10"].value).toBe(100);
  });

  it("no coverage data, headcount zero, missing parts: null with the reason", () => {
    const none = report(BERLIN, { coverage: null }).byId;
    for (const id of ["S1-14_01", "S1-14_10", "S1-14_11"])
      expect(none[id]).toMatchObject({
        value: null,
        note: expect.stringMatching(/no health and safety coverage data is recorded for 2025/),
      });
    expect(
      report(BERLIN, { coverage: { ...COVERAGE, headcount: 0 } }).byId["S1-14_01"].note,
    ).toMatch(/headcount for 2025 is missing or zero/);
    const partial = report(BERLIN, {
      coverage: { ...COVERAGE, auditedHeadcount: null, certificationStandards: [] },
    }).byId;
    expect(partial["S1-14_10"].note).toMatch(
      /audited or certified headcount for 2025 is not recorded/,
    );
    expect(partial["S1-14_11"]).toMatchObject({
      value: null,
      note: expect.stringMatching(/no certification standards are recorded/),
    });
  });
});

const CONTEXT = {
  periodStart: "2024-12-31T23:00:00.000Z",
  periodEnd: "2025-12-31T23:00:00.000Z",
  timeZone: "Europe/Berlin",
  complete: true,
  generatedAt: "2026-06-01T00:00:00.000Z",
  basis: "live" as const,
  frozen: null,
};

describe("the CSV", () => {
  it("a BOM, the header, twelve totals in order, then one row per breakdown; period, completeness and generated_at as columns", () => {
    const csv = esrsCsv(report(BERLIN, { records: [] }).rows, CONTEXT);
    expect(csv.startsWith("\uFEFFdatapoint_id,")).toBe(true);
    const lines = csv.slice(1).split("\r\n");
    expect(lines[0]).toBe(
      "datapoint_id,esrs_paragraph,name,value,unit,decimals,concept,xbrl_value,xbrl_unit,period_type,breakdown_of,axis,member,xbrl_member,voluntary,omission,period_start,period_end,time_zone,complete,generated_at,basis,frozen_version,frozen_at,note",
    );
    // header, 12 totals, 8 breakdowns, and the empty string after the last CRLF
    expect(lines).toHaveLength(22);
    const tail =
      ",2024-12-31T23:00:00.000Z,2025-12-31T23:00:00.000Z,Europe/Berlin,true,2026-06-01T00:00:00.000Z,live,,,";
    expect(lines[1]).toMatch(
      /^S1-14_01,ESRS S1 88 \(a\),coverage_by_health_and_safety_management_system,83\.33,percent,4,esrs:PercentageOfPeopleInOwnWorkforceWhoAreCoveredByHealthAndSafetyManagementSystemBasedOnLegalRequirementsAndOrRecognisedStandardsOrGuidelines,0\.8333,pure,duration,,,,,false,,/,
    );
    expect(lines[1]).toContain(tail);
    expect(lines[5]).toMatch(
      /^S1-14_05,ESRS S1 88 \(c\),rate_of_recordable_work_related_accidents,,per_million_hours,,esrs:RateOfRecordableWorkrelatedAccidents,,pure,duration,,,,,false,,/,
    );
    expect(lines[12]).toMatch(
      /^S1-14_12,ESRS S1 AR 94,voluntary_datapoint_ar_94,,count,,,,pure,duration,,,,,true,,/,
    );
    expect(lines[13]).toMatch(
      /^S1-14_02\.employee,ESRS S1 88 \(b\),work_related_fatalities_employees,4,count,0,esrs:NumberOfFatalitiesInOwnWorkforceAsResultOfWorkrelatedInjuriesAndWorkrelatedIllHealth,4,pure,duration,S1-14_02,person_type,employee,esrs:EmployeesMember,false,,/,
    );
    expect(lines[16]).toMatch(
      /^S1-14_02\.ill_health,ESRS S1 AR 82,work_related_fatalities_from_ill_health,3,count,0,esrs:NumberOfFatalitiesInOwnWorkforceAsResultOfWorkrelatedIllHealth,3,pure,duration,S1-14_02,cause,ill_health,,false,,/,
    );
    expect(lines[21]).toBe("");
    const frozen = esrsCsv(report(BERLIN, { records: [] }).rows, {
      ...CONTEXT,
      basis: "frozen",
      frozen: { version: 2, frozenAt: "2026-02-10T09:30:00.000Z" },
    });
    expect(frozen.split("\r\n")[1]).toContain(
      ",2026-06-01T00:00:00.000Z,frozen,2,2026-02-10T09:30:00.000Z,",
    );
  });

  it("quotes commas, quotes and line breaks (RFC 4180) and defuses spreadsheet formulas", () => {
    const row = (value: EsrsRow["value"], note: string): EsrsRow => ({
      datapoint_id: "X",
      esrs_paragraph: "P",
      name: "n",
      value,
      unit: "text",
      note,
      breakdown: null,
      concept: null,
      xbrl_member: null,
      xbrl_value: value,
      xbrl_unit: null,
      decimals: null,
      period_type: "duration",
      axis: null,
      member: null,
      voluntary: false,
      omission: null,
    });
    const csv = esrsCsv(
      [
        row('=HYPERLINK("http://evil.example")', "+cmd|' /C calc'!A0"),
        row("ISO 45001, SCC", 'said "no",\nthen left\r\nfor good'),
        row("@SUM(A1)", "-2+3"),
        row(null, "plain"),
      ],
      CONTEXT,
    );
    const line = (v: string, note: string) =>
      `X,P,n,${v},text,,,${v},,duration,,,,,false,,2024-12-31T23:00:00.000Z,2025-12-31T23:00:00.000Z,Europe/Berlin,true,2026-06-01T00:00:00.000Z,live,,,${note}`;
    expect(csv.split("\r\n").slice(1).join("\r\n")).toBe(
      [
        line(`"'=HYPERLINK(""http://evil.example"")"`, "'+cmd|' /C calc'!A0"),
        line(`"ISO 45001, SCC"`, `"said ""no"",\nthen left\r\nfor good"`),
        line("'@SUM(A1)", "'-2+3"),
        line("", "plain"),
        "",
      ].join("\r\n"),
    );
  });

  it("names the file after the company (made safe) and the year", () => {
    expect(esrsCsvFilename("co-1_A", 2025)).toBe("esrs-s1-14-co-1_A-2025.csv");
    expect(esrsCsvFilename('a"b\r\n/ü', 2024)).toBe("esrs-s1-14-a_b____-2024.csv");
  });
});

describe("the tagging fields", () => {
  it("per row: unit as the taxonomy types it, decimals, period type, axis and member", () => {
    const { byId } = report();
    expect(byId["S1-14_01"]).toMatchObject({
      value: 83.33,
      xbrl_value: 0.8333,
      xbrl_unit: "pure",
      decimals: 4,
      period_type: "duration", // the taxonomy's, though a headcount share reads as a state
    }); // 250 / 300 = 0.83333…
    expect(byId["S1-14_05"]).toMatchObject({
      value: 5.15,
      xbrl_value: 5.15,
      xbrl_unit: "pure",
      decimals: 2,
      period_type: "duration",
    });
    expect(byId["S1-14_07"]).toMatchObject({ value: 63, xbrl_value: 63, decimals: 0 });
    expect(byId["S1-14_11"]).toMatchObject({ xbrl_unit: null, decimals: null });
    expect(byId["S1-14_04.non_employee"]).toMatchObject({
      axis: "person_type",
      member: "non_employee",
    });
    expect(byId["S1-14_02.injury"]).toMatchObject({ axis: "cause", member: "injury" });
    expect(Object.values(byId).every((r) => r.period_type === "duration")).toBe(true);
  });

  it("tags every row that has an element of the ESRS taxonomy 2023-12-22, S1-14_12 none", () => {
    const { byId } = report();
    const tags = Object.fromEntries(
      Object.values(byId).map((r) => [r.datapoint_id, [r.concept, r.xbrl_member]]),
    );
    const system =
      "HealthAndSafetyManagementSystemBasedOnLegalRequirementsAndOrRecognisedStandardsOrGuidelines";
    const fatalities =
      "esrs:NumberOfFatalitiesInOwnWorkforceAsResultOfWorkrelatedInjuriesAndWorkrelatedIllHealth";
    const days =
      "esrs:NumberOfDaysLostToWorkrelatedInjuriesAndFatalitiesFromWorkrelatedAccidents" +
      "WorkrelatedIllHealthAndFatalitiesFromIllHealth";
    const [emp, nonEmp] = ["esrs:EmployeesMember", "esrs:NonemployeesMember"];
    expect(tags).toEqual({
      "S1-14_01": [`esrs:PercentageOfPeopleInOwnWorkforceWhoAreCoveredBy${system}`, null],
      "S1-14_02": [fatalities, null],
      "S1-14_03": [
        "esrs:NumberOfFatalitiesAsResultOfWorkrelatedInjuriesAndWorkrelatedIllHealthOfOtherWorkersWorkingOnUndertakingsSites",
        null,
      ],
      "S1-14_04": ["esrs:NumberOfRecordableWorkrelatedAccidents", null],
      "S1-14_05": ["esrs:RateOfRecordableWorkrelatedAccidents", null],
      "S1-14_06": ["esrs:NumberOfCasesOfRecordableWorkrelatedIllHealth", emp],
      "S1-14_07": [days, emp],
      "S1-14_08": ["esrs:NumberOfCasesOfRecordableWorkrelatedIllHealth", nonEmp],
      "S1-14_09": [days, nonEmp],
      "S1-14_10": [
        `esrs:PercentageOfOwnWorkersCoveredBy${system}AndWhichHasBeenInternallyAuditedAndOrAuditedOrCertifiedByExternalParty`,
        null,
      ],
      "S1-14_11": [
        "esrs:DescriptionOfUnderlyingStandardsForInternalAuditOrExternalCertificationOfHealthAndSafetyManagementSystemExplanatory",
        null,
      ],
      "S1-14_12": [null, null],
      "S1-14_02.employee": [fatalities, emp],
      "S1-14_02.non_employee": [fatalities, nonEmp],
      "S1-14_02.injury": [
        "esrs:NumberOfFatalitiesInOwnWorkforceAsResultOfWorkrelatedInjuries",
        null,
      ],
      "S1-14_02.ill_health": [
        "esrs:NumberOfFatalitiesInOwnWorkforceAsResultOfWorkrelatedIllHealth",
        null,
      ],
      "S1-14_04.employee": ["esrs:NumberOfRecordableWorkrelatedAccidents", emp],
      "S1-14_04.non_employee": ["esrs:NumberOfRecordableWorkrelatedAccidents", nonEmp],
      "S1-14_05.employee": ["esrs:RateOfRecordableWorkrelatedAccidents", emp],
      "S1-14_05.non_employee": ["esrs:RateOfRecordableWorkrelatedAccidents", nonEmp],
    });
    expect(byId["S1-14_12"].note).toContain("no element in the ESRS XBRL taxonomy 2023-12-22");
  });

  it("lists the voluntary datapoints", () => {
    const { byId } = report();
    expect(
      Object.values(byId)
        .filter((r) => r.voluntary)
        .map((r) => r.datapoint_id),
    ).toEqual(["S1-14_08", "S1-14_09", "S1-14_12"]);
  });

  it("S1-14_12 is a row even when null", () => {
    expect(report().byId["S1-14_12"]).toMatchObject({
      value: null,
      voluntary: true,
      omission: null,
      note: expect.stringMatching(/Not reported: the app does not collect/),
    });
  });

  it("marks: not collected under legal restrictions on any datapoint (its breakdowns follow); voluntary_not_disclosed on voluntary ones only", () => {
    const period = reportingPeriod(YEAR, BERLIN);
    const hours = hoursByMonth(period.months, RECORDS);
    const omissions = {
      "S1-14_06": "not_collected_legal_restrictions",
      "S1-14_04": "not_collected_legal_restrictions",
      "S1-14_08": "voluntary_not_disclosed",
      "S1-14_07": "voluntary_not_disclosed",
      "S1-14_09": "other",
    };
    const rows = buildRows(
      period,
      { incidents: evaluateCases(FIXTURE, period).values, hours, coverage: COVERAGE, omissions },
      periodStatus(period, hours, AFTER),
    );
    const byId = Object.fromEntries(rows.map((r) => [r.datapoint_id, r]));
    expect(byId["S1-14_06"]).toMatchObject({
      value: null,
      omission: "not_collected_legal_restrictions",
      note: expect.stringMatching(
        /Not reported: the undertaking does not collect this data where legal restrictions prevent it/,
      ),
    });
    expect(byId["S1-14_04.employee"]).toMatchObject({
      value: null,
      omission: "not_collected_legal_restrictions",
    });
    expect(byId["S1-14_08"]).toMatchObject({ value: null, omission: "voluntary_not_disclosed" });
    expect(byId["S1-14_07"]).toMatchObject({ value: 63, omission: null }); // mandatory: the mark is ignored
    expect(byId["S1-14_09"]).toMatchObject({ value: 17, omission: null }); // not a known mark
  });
});
