import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import type { Incident } from "../../src/company/schemas";
import { firestore } from "../../src/config/firebase";
import { esrsS1Report } from "../../src/index";
import { periodYearAt, reportingPeriod } from "../../src/lib/period";
import { esrsCsv } from "../../src/services/esrs/csv";
import { evaluateInMemory } from "../../src/services/esrs/evaluate";
import { evaluateByQueries } from "../../src/services/esrs/queries";
import { computeEsrsReport } from "../../src/services/esrs/report";
import { computeRollup } from "../../src/services/kpiRollup";
import { signedIn } from "../support/authUsers";
import { randomId, seedCompany, seedKey, seedUser } from "../support/builders";
import { callables, rejectsWith } from "../support/callables";
import { BERLIN, FIXTURE, HOURS_2025, HOURS_DOCS, YEAR } from "../support/esrsFixture";
import { client } from "../support/http";

const company = client(createCompanyApp());
const { callable, cleanup } = callables();
const report = callable(esrsS1Report);
afterAll(cleanup);

/** The Berlin 2025 numbers worked out by hand in test/unit/esrs.test.ts and esrsRows.test.ts. */
const EXPECTED_VALUES = {
  "S1-14_01": 83.33,
  "S1-14_02": 5,
  "S1-14_03": 1,
  "S1-14_04": 11,
  "S1-14_05": 4.04,
  "S1-14_06": 3,
  "S1-14_07": 52,
  "S1-14_08": 2,
  "S1-14_09": 17,
  "S1-14_10": 33.33,
  "S1-14_11": "ISO 45001, SCC",
  "S1-14_02.employee": 3,
  "S1-14_02.non_employee": 2,
  "S1-14_02.injury": 3,
  "S1-14_02.ill_health": 2,
  "S1-14_04.employee": 9,
  "S1-14_04.non_employee": 2,
  "S1-14_05.employee": null,
  "S1-14_05.non_employee": null,
};
const period = reportingPeriod(YEAR, BERLIN);
const AFTER = new Date("2026-06-15T00:00:00Z");

/** A Berlin company with the fixture's incidents (`copies` times), its worked-hours documents and coverage. */
async function seedFixture(copies = 1): Promise<string> {
  const companyId = await seedCompany({ reportingTimeZone: BERLIN.timeZone, financialYearStartMonth: BERLIN.firstMonth });
  const writer = firestore().bulkWriter();
  const base = `companies/${companyId}`;
  const writes: Array<Promise<unknown>> = [];
  let seq = 0;
  for (let copy = 0; copy < copies; copy++) {
    for (const i of FIXTURE) {
      seq++;
      writes.push(writer.set(firestore().doc(`${base}/incidents/inc${String(seq).padStart(4, "0")}`), {
        reference: `INC-2025-${String(seq).padStart(4, "0")}`,
        title: `Incident ${seq}`,
        description: "Seeded for the ESRS S1-14 test.",
        eventDate: i.eventDate ? Timestamp.fromDate(i.eventDate) : null,
        reportedAt: i.reportedAt ? Timestamp.fromDate(i.reportedAt) : null,
        status: "closed",
        type: i.type,
        workRelated: i.workRelated,
        recordable: i.recordable,
        fatality: i.fatality,
        personType: i.personType,
        daysLost: i.daysLost,
        locationId: null,
        departmentId: null,
        reportedBy: "reporter",
        reportedByName: "Reporter",
        reportedByEmail: "reporter@private-canary.example",
        ...(i.hidden === undefined ? {} : { hidden: i.hidden }),
      }));
    }
  }
  for (const [id, month, hours, source] of HOURS_DOCS) {
    writes.push(writer.set(firestore().doc(`${base}/workedHours/${id}`), { month, hours, ...(source ? { source } : {}), updatedAt: Timestamp.now() }));
  }
  writes.push(writer.set(firestore().doc(`${base}/healthSafetyCoverage/${YEAR}`), { headcount: 300, coveredHeadcount: 250, auditedHeadcount: 100, certificationStandards: ["ISO 45001", "SCC"] }));
  await Promise.all([...writes, writer.close()]);
  return companyId;
}

const valuesOf = (datapoints: Array<{ datapoint_id: string; value: unknown }>) => Object.fromEntries(datapoints.map((d) => [d.datapoint_id, d.value]));

/** Every incident of the export, page by page. */
async function exportedIncidents(key: string): Promise<Incident[]> {
  const rows: Incident[] = [];
  let token: string | null = null;
  do {
    const res = await company.get(`/v1/incidents?limit=500${token ? `&page_token=${encodeURIComponent(token)}` : ""}`, key);
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    token = res.body.next_page_token;
  } while (token);
  return rows;
}

let companyId: string;
let key: string;
let owner: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  companyId = await seedFixture();
  ({ key } = await seedKey({ api: "company", companyId, rateLimits: { perMinute: 10_000 } }));
  owner = await signedIn();
  await seedUser(owner.uid, { companyId, role: "owner" });
});

describe("the ESRS S1-14 calculation on Firestore", () => {
  it("the aggregation queries give exactly the in-memory evaluator's numbers", async () => {
    const expected = evaluateInMemory(FIXTURE, period);
    expect(await evaluateByQueries(companyId, period, { queries: 0, documentsRead: 0 })).toEqual(expected);
    expect(expected).toMatchObject({ "S1-14_02": 5, "S1-14_04": 11, "S1-14_07": 52, "S1-14_09": 17 });
  });

  it("runs the same queries for the fixture and ten copies of it; only the hidden incidents are read", async () => {
    const large = await seedFixture(10);
    const small = { queries: 0, documentsRead: 0 };
    const tenfold = { queries: 0, documentsRead: 0 };
    await computeEsrsReport(companyId, YEAR, small, AFTER);
    const result = await computeEsrsReport(large, YEAR, tenfold, AFTER);
    // 31 aggregations, the hidden incidents, the period's worked-hours records.
    expect(tenfold.queries).toBe(small.queries);
    expect(small.queries).toBe(33);
    // Nine more copies of #7 and #23 (and of #24, if Firestore's `!= false` returns `null`s).
    expect([18, 27]).toContain(tenfold.documentsRead - small.documentsRead);
    expect(valuesOf(result.datapoints)).toMatchObject({ "S1-14_04": 110, "S1-14_05": 40.44, "S1-14_07": 520 });
  });
});

describe("one set of numbers", () => {
  it("ESRS hours = the sum of GET /v1/worked-hours = the rollup's months of the year", async () => {
    const esrs = await company.get(`/v1/esrs-s1?year=${YEAR}`, key);
    const perMonth = await company.get(`/v1/worked-hours?year=${YEAR}`, key);
    const rollup = await computeRollup(companyId, AFTER);
    expect(esrs.body.data.worked_hours).toEqual(HOURS_2025);
    expect(perMonth.body.data.months.map((m: { month: string }) => m.month)).toEqual(period.months);
    expect(perMonth.body.data.months.reduce((s: number, m: { total_hours: number }) => s + m.total_hours, 0)).toBe(HOURS_2025.total);
    expect(period.months.reduce((s, m) => s + rollup.areas.worked_hours.by_month[m], 0)).toBe(HOURS_2025.total);
    // Every numeric record, the malformed month's 999 h included; app + api = total.
    const { total, by_source } = rollup.areas.worked_hours;
    expect(total).toBe(HOURS_2025.total + 999 + 50_000 + 40_000);
    expect(by_source).toEqual({ app: HOURS_2025.app + 999 + 50_000, api: HOURS_2025.api + 40_000 });
  });

  it("ESRS incident counts = the incidents export filtered the same way; the rollup counts the same incidents", async () => {
    const rows = await exportedIncidents(key);
    expect(rows).toHaveLength(FIXTURE.length - 2); // #7 (hidden: true) and #23 (hidden: "true") are left out; #24 (null) is in
    const inPeriod = (iso: string | null) => iso !== null && new Date(iso) >= period.start && new Date(iso) < period.end;
    const cases = rows.flatMap((r) => {
      if (!r.work_related || !(r.fatality || (r.recordable && (r.type === "injury" || r.type === "ill_health")))) return [];
      const kind = r.type === "ill_health" ? "ill_health" : "injury";
      return inPeriod(kind === "ill_health" ? r.reported_at : r.event_date) ? [{ ...r, kind }] : [];
    });
    const own = (p: string | null) => p === "employee" || p === "non_employee";
    const count = (pred: (c: (typeof cases)[number]) => boolean) => cases.filter(pred).length;
    const days = (pred: (c: (typeof cases)[number]) => boolean) => cases.filter(pred).reduce((s, c) => s + (c.days_lost ?? 0), 0);
    const fromExport = {
      "S1-14_02": count((c) => own(c.person_type) && c.fatality),
      "S1-14_03": count((c) => c.person_type === "other_worker" && c.fatality),
      "S1-14_04": count((c) => own(c.person_type) && c.kind === "injury"),
      "S1-14_06": count((c) => c.person_type === "employee" && c.kind === "ill_health"),
      "S1-14_07": days((c) => c.person_type === "employee"),
      "S1-14_08": count((c) => c.person_type === "non_employee" && c.kind === "ill_health"),
      "S1-14_09": days((c) => c.person_type === "non_employee"),
      "S1-14_02.employee": count((c) => c.person_type === "employee" && c.fatality),
      "S1-14_02.non_employee": count((c) => c.person_type === "non_employee" && c.fatality),
      "S1-14_02.injury": count((c) => own(c.person_type) && c.fatality && c.kind === "injury"),
      "S1-14_02.ill_health": count((c) => own(c.person_type) && c.fatality && c.kind === "ill_health"),
      "S1-14_04.employee": count((c) => c.person_type === "employee" && c.kind === "injury"),
      "S1-14_04.non_employee": count((c) => c.person_type === "non_employee" && c.kind === "injury"),
    };
    const esrs = await company.get(`/v1/esrs-s1?year=${YEAR}`, key);
    expect(valuesOf(esrs.body.data.datapoints)).toMatchObject(fromExport);
    const rollup = await computeRollup(companyId, AFTER);
    expect(rollup.areas.incidents.total).toBe(rows.length);
  });
});

describe("GET /v1/esrs-s1", () => {
  it("JSON: the period's datapoints and breakdowns, the period itself, the same as the app's callable", async () => {
    const res = await company.get(`/v1/esrs-s1?year=${YEAR}`, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      company_id: companyId,
      year: YEAR,
      period: { start: "2024-12-31T23:00:00.000Z", end: "2025-12-31T23:00:00.000Z", time_zone: "Europe/Berlin", first_month: 1, complete: true, in_progress: false, months_without_hours: [] },
      generated_at: expect.stringMatching(/Z$/),
    });
    expect(valuesOf(res.body.data.datapoints)).toEqual(EXPECTED_VALUES);
    const fromApp = await report({ companyId, year: YEAR }, owner);
    expect(fromApp).toMatchObject({ companyId, year: YEAR, period: { timeZone: "Europe/Berlin", complete: true }, workedHours: HOURS_2025 });
    expect(res.body.data.datapoints).toEqual(fromApp.datapoints);
  });

  it("CSV: today's rows first, then the breakdowns; the same values as the JSON", async () => {
    const json = await company.get(`/v1/esrs-s1?year=${YEAR}&format=json`, key);
    const res = await company.raw().get(`/v1/esrs-s1?year=${YEAR}&format=csv`).set("Authorization", `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="esrs-s1-14-${companyId}-${YEAR}.csv"`);
    expect(res.text).toBe(esrsCsv(json.body.data.datapoints));
    const lines = res.text.split("\r\n");
    expect(lines[0]).toBe("datapoint_id,esrs_paragraph,name,value,unit,note");
    expect(lines).toHaveLength(21);
    expect(lines[5]).toMatch(/^S1-14_05,ESRS S1 88 \(c\),rate_of_recordable_work_related_accidents,4\.04,per_million_hours,/);
    expect(lines[11]).toMatch(/^S1-14_11,ESRS S1 AR 81,health_and_safety_management_system_standards,"ISO 45001, SCC",text,/);
    expect(lines[16]).toMatch(/^S1-14_04\.employee,ESRS S1 88 \(c\),recordable_work_related_accidents_employees,9,count,/);
  });

  it("a year from April in London: the period, its months and its hours follow the setting", async () => {
    const april = await seedCompany({ reportingTimeZone: "Europe/London", financialYearStartMonth: 4 });
    const aprilKey = (await seedKey({ api: "company", companyId: april })).key;
    await firestore().doc(`companies/${april}/workedHours/app-2026-03`).set({ month: "2026-03", hours: 500, source: "app" });
    const res = await company.get(`/v1/esrs-s1?year=${YEAR}`, aprilKey);
    expect(res.body.data.period).toMatchObject({ start: "2025-03-31T23:00:00.000Z", end: "2026-03-31T23:00:00.000Z", first_month: 4, complete: false });
    expect(res.body.data.worked_hours.total).toBe(500);
    const months = await company.get(`/v1/worked-hours?year=${YEAR}`, aprilKey);
    expect([months.body.data.months[0].month, months.body.data.months[11]]).toEqual(["2025-04", { month: "2026-03", app_hours: 500, api_hours: 0, total_hours: 500 }]);
  });

  it.each([
    ["year=2999", /query parameter "year"/],
    ["year=26", /query parameter "year"/],
    ["year=2025.0", /query parameter "year"/],
    ["format=xml", /query parameter "format"/],
    ["year=2025&color=red", /Unknown query parameter "color"/],
  ])("?%s → 400 invalid_request naming the parameter", async (queryString, message) => {
    const res = await company.get(`/v1/esrs-s1?${queryString}`, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(message);
  });

  it("defaults to the period in progress (in the company's time zone) and JSON; it is marked incomplete", async () => {
    const res = await company.get("/v1/esrs-s1", key);
    expect(res.status).toBe(200);
    expect(res.body.data.year).toBe(periodYearAt(new Date(), BERLIN));
    expect(res.body.data.period).toMatchObject({ in_progress: true, complete: false });
    expect(res.body.data.datapoints).toHaveLength(19);
  });
});

describe("the esrsS1Report callable", () => {
  it("the owner and an Admin may; others may not; an unknown company is not-found; input is checked", async () => {
    const standard = await signedIn();
    await seedUser(standard.uid, { companyId, role: "standard" });
    const admin = await signedIn({ admin: true });
    await expect(report({ companyId, year: YEAR }, admin)).resolves.toMatchObject({ companyId, year: YEAR, datapoints: expect.any(Array) });
    await rejectsWith(report({ companyId, year: YEAR }, standard), "permission-denied");
    await rejectsWith(report({ companyId, year: YEAR }, null), "unauthenticated");
    await rejectsWith(report({ companyId: randomId("nope"), year: YEAR }, admin), "not-found");
    await rejectsWith(report({ companyId, year: 2999 }, admin), "invalid-argument");
    await rejectsWith(report({ companyId, year: "2025" }, admin), "invalid-argument");
    await rejectsWith(report({ companyId }, admin), "invalid-argument");
    await rejectsWith(report({ companyId, year: YEAR, extra: 1 }, admin), "invalid-argument");
    await rejectsWith(report({ companyId: await seedCompany({ plan: "pro" }), year: YEAR }, admin), "failed-precondition");
  });
});
