import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import type { Incident } from "../../src/company/schemas";
import { firestore } from "../../src/config/firebase";
import { esrsS1Report, freezeEsrsS1Report } from "../../src/index";
import { periodYearAt, reportingPeriod } from "../../src/lib/period";
import { esrsCsv } from "../../src/services/esrs/csv";
import { evaluateCases } from "../../src/services/esrs/evaluate";
import { readCases } from "../../src/services/esrs/queries";
import { computeEsrsReport } from "../../src/services/esrs/report";
import { computeRollup } from "../../src/services/kpiRollup";
import { signedIn } from "../support/authUsers";
import { randomId, seedCompany, seedKey, seedUser } from "../support/builders";
import { callables, rejectsWith } from "../support/callables";
import { BERLIN, FIXTURE, HOURS_2025, HOURS_DOCS, YEAR } from "../support/esrsFixture";
import { client } from "../support/http";
import { countReads } from "../support/readCounter";

const company = client(createCompanyApp());
const { callable, cleanup } = callables();
const report = callable(esrsS1Report);
const freeze = callable(freezeEsrsS1Report);
afterAll(cleanup);

/** The Berlin 2025 numbers worked out by hand in test/unit/esrs.test.ts and esrsRows.test.ts. */
const EXPECTED_VALUES = {
  "S1-14_01": 83.33,
  "S1-14_02": 6,
  "S1-14_03": 1,
  "S1-14_04": 14,
  "S1-14_05": 5.15,
  "S1-14_06": 3,
  "S1-14_07": 63,
  "S1-14_08": 2,
  "S1-14_09": 17,
  "S1-14_10": 33.33,
  "S1-14_11": "ISO 45001, SCC",
  "S1-14_12": null,
  "S1-14_02.employee": 4,
  "S1-14_02.non_employee": 2,
  "S1-14_02.injury": 3,
  "S1-14_02.ill_health": 3,
  "S1-14_04.employee": 12,
  "S1-14_04.non_employee": 2,
  "S1-14_05.employee": null,
  "S1-14_05.non_employee": null,
};
const period = reportingPeriod(YEAR, BERLIN);
const AFTER = new Date("2026-06-15T00:00:00Z");

/**
 * A Berlin company with the fixture's incidents (`copies` times), its worked-hours documents and
 * coverage.
 */
async function seedFixture(copies = 1): Promise<string> {
  const companyId = await seedCompany({
    reportingTimeZone: BERLIN.timeZone,
    financialYearStartMonth: BERLIN.firstMonth,
  });
  const writer = firestore().bulkWriter();
  const base = `companies/${companyId}`;
  const writes: Array<Promise<unknown>> = [];
  let seq = 0;
  for (let copy = 0; copy < copies; copy++) {
    for (const i of FIXTURE) {
      seq++;
      writes.push(
        writer.set(firestore().doc(`${base}/incidents/inc${String(seq).padStart(4, "0")}`), {
          reference: `INC-2025-${String(seq).padStart(4, "0")}`,
          title: `Incident ${seq}`,
          description: "Seeded for the ESRS S1-14 test.",
          eventDate: i.eventDate ? Timestamp.fromDate(i.eventDate) : null,
          reportedAt: i.reportedAt ? Timestamp.fromDate(i.reportedAt) : null,
          ...(i.dateOfDeath ? { dateOfDeath: Timestamp.fromDate(i.dateOfDeath) } : {}),
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
        }),
      );
    }
  }
  for (const [id, month, hours, source] of HOURS_DOCS) {
    writes.push(
      writer.set(firestore().doc(`${base}/workedHours/${id}`), {
        month,
        hours,
        ...(source ? { source } : {}),
        updatedAt: Timestamp.now(),
      }),
    );
  }
  writes.push(
    writer.set(firestore().doc(`${base}/healthSafetyCoverage/${YEAR}`), {
      headcount: 300,
      coveredHeadcount: 250,
      auditedHeadcount: 100,
      certificationStandards: ["ISO 45001", "SCC"],
    }),
  );
  await Promise.all([...writes, writer.close()]);
  return companyId;
}

const valuesOf = (datapoints: Array<{ datapoint_id: string; value: unknown }>) =>
  Object.fromEntries(datapoints.map((d) => [d.datapoint_id, d.value]));

/** Every incident of the export, page by page. */
async function exportedIncidents(key: string): Promise<Incident[]> {
  const rows: Incident[] = [];
  let token: string | null = null;
  do {
    const res = await company.get(
      `/v1/incidents?limit=500${token ? `&page_token=${encodeURIComponent(token)}` : ""}`,
      key,
    );
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
  it("the incidents the five queries read give exactly the evaluator's numbers over all incidents", async () => {
    const expected = evaluateCases(FIXTURE, period).values;
    expect(evaluateCases(await readCases(companyId, period), period).values).toEqual(expected);
    expect(expected).toMatchObject({
      "S1-14_02": 6,
      "S1-14_04": 14,
      "S1-14_07": 63,
      "S1-14_09": 17,
    });
  });

  it("runs the same queries for the fixture and ten copies of it; reads grow with the cases only", async () => {
    const large = await seedFixture(10);
    const small = await countReads(() => computeEsrsReport(companyId, YEAR, AFTER));
    const { result, ...tenfold } = await countReads(() => computeEsrsReport(large, YEAR, AFTER));
    // The company's settings and the coverage document, the five case queries and the period's
    // worked-hours records.
    expect(tenfold.requests).toBe(small.requests);
    expect(small.requests).toBe(2 + 6);
    // Nine more copies of each incident read (the candidate cases), nothing else.
    const perCopy = (tenfold.documents - small.documents) / 9;
    expect(Number.isInteger(perCopy) && perCopy > 0 && perCopy <= FIXTURE.length * 5).toBe(true);
    // 10 × 14 accidents / 2,720,000 h × 1,000,000 = 51.4705… → 51.47; 10 × 63 days.
    expect(valuesOf(result.datapoints)).toMatchObject({
      "S1-14_04": 140,
      "S1-14_05": 51.47,
      "S1-14_07": 630,
    });
  });
});

describe("one set of numbers", () => {
  it("ESRS hours = the sum of GET /v1/worked-hours = the rollup's months of the year", async () => {
    const esrs = await company.get(`/v1/esrs-s1?year=${YEAR}`, key);
    const perMonth = await company.get(`/v1/worked-hours?year=${YEAR}`, key);
    const rollup = await computeRollup(companyId, AFTER);
    expect(esrs.body.data.worked_hours).toEqual(HOURS_2025);
    expect(perMonth.body.data.months.map((m: { month: string }) => m.month)).toEqual(period.months);
    expect(
      perMonth.body.data.months.reduce(
        (s: number, m: { total_hours: number }) => s + m.total_hours,
        0,
      ),
    ).toBe(HOURS_2025.total);
    expect(period.months.reduce((s, m) => s + rollup.areas.worked_hours.by_month[m], 0)).toBe(
      HOURS_2025.total,
    );
    // Every numeric record, the malformed month's 999 h included; app + api = total.
    const { total, by_source } = rollup.areas.worked_hours;
    expect(total).toBe(HOURS_2025.total + 999 + 50_000 + 40_000);
    expect(by_source).toEqual({ app: HOURS_2025.app + 999 + 50_000, api: HOURS_2025.api + 40_000 });
  });

  it("ESRS incident counts = the incidents export filtered the same way; the rollup counts the same incidents", async () => {
    const rows = await exportedIncidents(key);
    // #7 (hidden: true) and #23 (hidden: "true") are left out; #24 (null) is in
    expect(rows).toHaveLength(FIXTURE.length - 2);
    const inPeriod = (iso: string | null) =>
      iso !== null && new Date(iso) >= period.start && new Date(iso) < period.end;
    const cases = rows.flatMap((r) => {
      if (!r.work_related || !(r.fatality || r.recordable)) return [];
      const kind = r.type === "ill_health" ? "ill_health" : "injury";
      const date = kind === "ill_health" ? r.reported_at : r.event_date;
      return [
        {
          ...r,
          kind,
          inPeriod: inPeriod(date),
          diedInPeriod: r.fatality && inPeriod(r.date_of_death ?? date),
        },
      ];
    });
    const own = (p: string | null) => p === "employee" || p === "non_employee";
    type Case = (typeof cases)[number];
    const count = (pred: (c: Case) => boolean) => cases.filter((c) => c.inPeriod && pred(c)).length;
    const deaths = (pred: (c: Case) => boolean) =>
      cases.filter((c) => c.diedInPeriod && pred(c)).length;
    const days = (pred: (c: Case) => boolean) =>
      cases.filter((c) => c.inPeriod && pred(c)).reduce((s, c) => s + (c.days_lost ?? 0), 0);
    const fromExport = {
      "S1-14_02": deaths((c) => own(c.person_type)),
      "S1-14_03": deaths((c) => c.person_type === "other_worker"),
      "S1-14_04": count((c) => own(c.person_type) && c.kind === "injury"),
      "S1-14_06": count((c) => c.person_type === "employee" && c.kind === "ill_health"),
      "S1-14_07": days((c) => c.person_type === "employee"),
      "S1-14_08": count((c) => c.person_type === "non_employee" && c.kind === "ill_health"),
      "S1-14_09": days((c) => c.person_type === "non_employee"),
      "S1-14_02.employee": deaths((c) => c.person_type === "employee"),
      "S1-14_02.non_employee": deaths((c) => c.person_type === "non_employee"),
      "S1-14_02.injury": deaths((c) => own(c.person_type) && c.kind === "injury"),
      "S1-14_02.ill_health": deaths((c) => own(c.person_type) && c.kind === "ill_health"),
      "S1-14_04.employee": count((c) => c.person_type === "employee" && c.kind === "injury"),
      "S1-14_04.non_employee": count(
        (c) => c.person_type === "non_employee" && c.kind === "injury",
      ),
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
      period: {
        start: "2024-12-31T23:00:00.000Z",
        end: "2025-12-31T23:00:00.000Z",
        time_zone: "Europe/Berlin",
        first_month: 1,
        complete: true,
        in_progress: false,
        months_without_hours: [],
      },
      generated_at: expect.stringMatching(/Z$/),
    });
    expect(valuesOf(res.body.data.datapoints)).toEqual(EXPECTED_VALUES);
    const fromApp = await report({ companyId, year: YEAR }, owner);
    expect(fromApp).toMatchObject({
      companyId,
      year: YEAR,
      period: { timeZone: "Europe/Berlin", complete: true },
      workedHours: HOURS_2025,
    });
    expect(res.body.data.datapoints).toEqual(fromApp.datapoints);
  });

  it("CSV: today's rows first, then the breakdowns; the same values as the JSON", async () => {
    const json = await company.get(`/v1/esrs-s1?year=${YEAR}&format=json`, key);
    const res = await company
      .raw()
      .get(`/v1/esrs-s1?year=${YEAR}&format=csv`)
      .set("Authorization", `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="esrs-s1-14-${companyId}-${YEAR}.csv"`,
    );
    const { period: p, generated_at } = json.body.data;
    const context = {
      periodStart: p.start,
      periodEnd: p.end,
      timeZone: p.time_zone,
      complete: p.complete,
      generatedAt: generated_at,
      basis: "live" as const,
      frozen: null,
    };
    expect(res.text).toBe(esrsCsv(json.body.data.datapoints, context));
    expect(res.text.startsWith("\uFEFFdatapoint_id,")).toBe(true);
    const lines = res.text.slice(1).split("\r\n");
    expect(lines[0]).toMatch(
      /^datapoint_id,esrs_paragraph,name,value,unit,decimals,concept,xbrl_value,xbrl_unit,period_type,breakdown_of,axis,member,xbrl_member,voluntary,omission,period_start,period_end,time_zone,complete,generated_at,basis,frozen_version,frozen_at,note$/,
    );
    expect(lines).toHaveLength(22);
    expect(lines[5]).toMatch(
      /^S1-14_05,ESRS S1 88 \(c\),rate_of_recordable_work_related_accidents,5\.15,per_million_hours,/,
    );
    expect(lines[11]).toMatch(
      /^S1-14_11,ESRS S1 AR 81,health_and_safety_management_system_standards,"ISO 45001, SCC",text,/,
    );
    expect(lines[17]).toMatch(
      /^S1-14_04\.employee,ESRS S1 88 \(c\),recordable_work_related_accidents_employees,12,count,/,
    );
  });

  it("a year from April in London: the period, its months and its hours follow the setting", async () => {
    const april = await seedCompany({
      reportingTimeZone: "Europe/London",
      financialYearStartMonth: 4,
    });
    const aprilKey = (await seedKey({ api: "company", companyId: april })).key;
    await firestore()
      .doc(`companies/${april}/workedHours/app-2026-03`)
      .set({ month: "2026-03", hours: 500, source: "app" });
    const res = await company.get(`/v1/esrs-s1?year=${YEAR}`, aprilKey);
    expect(res.body.data.period).toMatchObject({
      start: "2025-03-31T23:00:00.000Z",
      end: "2026-03-31T23:00:00.000Z",
      first_month: 4,
      complete: false,
    });
    expect(res.body.data.worked_hours.total).toBe(500);
    const months = await company.get(`/v1/worked-hours?year=${YEAR}`, aprilKey);
    expect([months.body.data.months[0].month, months.body.data.months[11]]).toEqual([
      "2025-04",
      {
        month: "2026-03",
        app_hours: 500,
        api_hours: 0,
        total_hours: 500,
        by_worker_category: { employees: 0, non_employees: 0, unattributed: 500 },
      },
    ]);
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

  it("a period that has not begun in the company's calendar → 400 naming the latest one that has (no zeros labelled year to date)", async () => {
    const april = await seedCompany({
      reportingTimeZone: "Europe/London",
      financialYearStartMonth: 4,
    });
    const aprilKey = (await seedKey({ api: "company", companyId: april })).key;
    const next = new Date().getUTCFullYear() + 1; // its April is always ahead
    const latest = periodYearAt(new Date(), { timeZone: "Europe/London", firstMonth: 4 });
    const res = await company.get(`/v1/esrs-s1?year=${next}`, aprilKey);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "invalid_request",
      message: `year: the ${next} reporting period (${next}-04-01 to ${next + 1}-03-31 (Europe/London)) has not begun; the latest period that has begun is ${latest}.`,
    });
    expect((await company.get(`/v1/esrs-s1?year=${latest}`, aprilKey)).status).toBe(200);
    await rejectsWith(
      report({ companyId: april, year: next }, await signedIn({ admin: true })),
      "invalid-argument",
    );
  });

  it("defaults to the period in progress (in the company's time zone) and JSON; it is marked incomplete", async () => {
    const res = await company.get("/v1/esrs-s1", key);
    expect(res.status).toBe(200);
    expect(res.body.data.year).toBe(periodYearAt(new Date(), BERLIN));
    expect(res.body.data.period).toMatchObject({ in_progress: true, complete: false });
    expect(res.body.data.datapoints).toHaveLength(20);
  });

  it("the default year is served from the cache like an explicit one (no recomputation per call)", async () => {
    const cachedCompany = await seedCompany({
      reportingTimeZone: BERLIN.timeZone,
      financialYearStartMonth: BERLIN.firstMonth,
    });
    const cachedKey = (await seedKey({ api: "company", companyId: cachedCompany })).key;
    const first = await company.get("/v1/esrs-s1?basis=live", cachedKey);
    const second = await company.get("/v1/esrs-s1?basis=live", cachedKey);
    const explicit = await company.get(
      `/v1/esrs-s1?basis=live&year=${first.body.data.year}`,
      cachedKey,
    );
    expect([first.status, second.status, explicit.status]).toEqual([200, 200, 200]);
    expect(second.body.data.generated_at).toBe(first.body.data.generated_at);
    expect(explicit.body.data.generated_at).toBe(first.body.data.generated_at);
  });
});

describe("the esrsS1Report callable", () => {
  it("the owner and an Admin may; others may not; an unknown company is not-found; input is checked", async () => {
    const standard = await signedIn();
    await seedUser(standard.uid, { companyId, role: "standard" });
    const admin = await signedIn({ admin: true });
    await expect(report({ companyId, year: YEAR }, admin)).resolves.toMatchObject({
      companyId,
      year: YEAR,
      datapoints: expect.any(Array),
    });
    await rejectsWith(report({ companyId, year: YEAR }, standard), "permission-denied");
    await rejectsWith(report({ companyId, year: YEAR }, null), "unauthenticated");
    await rejectsWith(report({ companyId: randomId("nope"), year: YEAR }, admin), "not-found");
    await rejectsWith(report({ companyId, year: 2999 }, admin), "invalid-argument");
    await rejectsWith(report({ companyId, year: "2025" }, admin), "invalid-argument");
    await rejectsWith(report({ companyId }, admin), "invalid-argument");
    await rejectsWith(report({ companyId, year: YEAR, extra: 1 }, admin), "invalid-argument");
    await rejectsWith(
      report({ companyId: await seedCompany({ plan: "pro" }), year: YEAR }, admin),
      "failed-precondition",
    );
  });
});

describe("freezing a year (freezeEsrsS1Report) and restating it", () => {
  it("freeze → edit an incident → the frozen figures stay, the live ones change, the difference is listed; freezing again keeps the earlier version", async () => {
    const frozenCompany = await seedFixture();
    const frozenKey = (
      await seedKey({ api: "company", companyId: frozenCompany, rateLimits: { perMinute: 10_000 } })
    ).key;
    const boss = await signedIn();
    await seedUser(boss.uid, {
      companyId: frozenCompany,
      role: "owner",
      displayName: "Olga Owner",
    });
    const first = await freeze({ companyId: frozenCompany, year: YEAR }, boss);
    expect(first).toMatchObject({
      companyId: frozenCompany,
      year: YEAR,
      version: 1,
      frozenAt: expect.stringMatching(/Z$/),
    });
    const v1 = (
      await firestore().doc(`companies/${frozenCompany}/esrsReports/${YEAR}`).get()
    ).data();
    // What S1-14_07 (63 days) was made of: #1 (inc0001, 5 days) among others, with the facts as
    // read.
    expect(v1?.content.basis["S1-14_07"].incidents).toContain("inc0001");
    expect(v1?.content.incidents).toContainEqual(
      expect.objectContaining({
        id: "inc0001",
        daysLost: 5,
        type: "injury",
        personType: "employee",
      }),
    );
    expect(v1?.content.monthHours).toHaveLength(12);

    await firestore().doc(`companies/${frozenCompany}/incidents/inc0001`).update({ daysLost: 15 });

    const served = await company.get(`/v1/esrs-s1?year=${YEAR}`, frozenKey);
    expect(served.status).toBe(200);
    expect(served.body.data).toMatchObject({
      basis: "frozen",
      frozen: { version: 1, frozen_by: { type: "user", id: boss.uid } },
    });
    expect(valuesOf(served.body.data.datapoints)).toEqual(EXPECTED_VALUES); // 63 days, as frozen
    expect(served.body.data.restatement.differences).toEqual([
      { datapoint_id: "S1-14_07", frozen_value: 63, live_value: 73 },
    ]); // 63 − 5 + 15

    const csv = await company
      .raw()
      .get(`/v1/esrs-s1?year=${YEAR}&format=csv`)
      .set("Authorization", `Bearer ${frozenKey}`);
    expect(csv.text.split("\r\n")[7]).toMatch(
      /^S1-14_07,ESRS S1 88 \(e\),days_lost_to_work_related_injuries,63,days,/,
    ); // as frozen
    expect(csv.text.split("\r\n")[7]).toMatch(
      new RegExp(
        `^S1-14_07,.*,frozen,1,${served.body.data.frozen.frozen_at.replace(/\./g, "\\.")},`,
      ),
    );
    const live = await company.get(`/v1/esrs-s1?year=${YEAR}&basis=live`, frozenKey);
    expect(live.body.data).toMatchObject({ basis: "live", frozen: { version: 1 } });
    expect(valuesOf(live.body.data.datapoints)["S1-14_07"]).toBe(73);

    const second = await freeze({ companyId: frozenCompany, year: YEAR }, boss);
    expect(second.version).toBe(2);
    const kept = (
      await firestore().doc(`companies/${frozenCompany}/esrsReports/${YEAR}-v1`).get()
    ).data();
    expect(kept).toMatchObject({ year: YEAR, version: 1 });
    expect(
      kept?.content.datapoints.find((d: { datapoint_id: string }) => d.datapoint_id === "S1-14_07")
        .value,
    ).toBe(63);
    const now = await company.get(`/v1/esrs-s1?year=${YEAR}`, frozenKey);
    expect(now.body.data).toMatchObject({
      basis: "frozen",
      frozen: { version: 2 },
      restatement: { differences: [] },
    });
    expect(valuesOf(now.body.data.datapoints)["S1-14_07"]).toBe(73);

    const audit = await firestore()
      .collection(`companies/${frozenCompany}/auditLogs`)
      .where("action", "==", "esrs_report.frozen")
      .get();
    expect(audit.docs.map((d) => d.get("target.id")).sort()).toEqual([`${YEAR}-v1`, `${YEAR}-v2`]);
  });

  it("a report frozen before the rows were tagged keeps what it said; the live rows are tagged", async () => {
    const oldCompany = await seedFixture();
    const oldKey = (
      await seedKey({ api: "company", companyId: oldCompany, rateLimits: { perMinute: 10_000 } })
    ).key;
    await freeze({ companyId: oldCompany, year: YEAR }, await signedIn({ admin: true }));
    // The rows as an earlier version froze them: no concept, no member, coverage `instant`.
    const ref = firestore().doc(`companies/${oldCompany}/esrsReports/${YEAR}`);
    const rows = (
      (await ref.get()).get("content.datapoints") as Array<Record<string, unknown>>
    ).map(({ xbrl_member: _member, ...row }) => ({
      ...row,
      concept: null,
      period_type: ["S1-14_01", "S1-14_10"].includes(row.datapoint_id as string)
        ? "instant"
        : "duration",
    }));
    await ref.update({ "content.datapoints": rows });

    const frozen = await company.get(`/v1/esrs-s1?year=${YEAR}`, oldKey);
    expect(frozen.status).toBe(200);
    expect(frozen.body.data.basis).toBe("frozen");
    const byId = Object.fromEntries(
      frozen.body.data.datapoints.map((r: { datapoint_id: string }) => [r.datapoint_id, r]),
    );
    expect(byId["S1-14_01"]).toMatchObject({
      concept: null,
      xbrl_member: null,
      period_type: "instant",
      value: 83.33,
    });
    expect(byId["S1-14_06"]).toMatchObject({ concept: null, xbrl_member: null });
    expect(frozen.body.data.restatement.differences).toEqual([]);

    const live = await company.get(`/v1/esrs-s1?year=${YEAR}&basis=live`, oldKey);
    const liveById = Object.fromEntries(
      live.body.data.datapoints.map((r: { datapoint_id: string }) => [r.datapoint_id, r]),
    );
    expect(liveById["S1-14_01"]).toMatchObject({ period_type: "duration", value: 83.33 });
    expect(liveById["S1-14_01"].concept).toBe(
      "esrs:PercentageOfPeopleInOwnWorkforceWhoAreCoveredByHealthAndSafetyManagementSystemBasedOnLegalRequirementsAndOrRecognisedStandardsOrGuidelines",
    );
    expect(liveById["S1-14_06"]).toMatchObject({
      concept: "esrs:NumberOfCasesOfRecordableWorkrelatedIllHealth",
      xbrl_member: "esrs:EmployeesMember",
    });
    expect(liveById["S1-14_12"]).toMatchObject({ concept: null, xbrl_member: null });
  });

  it("owner or Admin only; a period in progress cannot be frozen; basis=frozen without a frozen version → 404", async () => {
    const standard = await signedIn();
    await seedUser(standard.uid, { companyId, role: "standard" });
    await rejectsWith(freeze({ companyId, year: YEAR }, standard), "permission-denied");
    await rejectsWith(freeze({ companyId, year: YEAR }, null), "unauthenticated");
    const admin = await signedIn({ admin: true });
    await rejectsWith(
      freeze({ companyId, year: periodYearAt(new Date(), BERLIN) }, admin),
      "failed-precondition",
    );
    const res = await company.get(`/v1/esrs-s1?year=${YEAR}&basis=frozen`, key);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    const plain = await company.get(`/v1/esrs-s1?year=${YEAR}`, key);
    expect(plain.body.data).toMatchObject({ basis: "live", frozen: null, restatement: null });
  });
});
