import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { esrsS1Report } from "../../src/index";
import { esrsCsv } from "../../src/services/esrs/csv";
import { evaluateByQueries, evaluateInMemory } from "../../src/services/esrs/evaluate";
import { computeEsrsReport } from "../../src/services/esrs/report";
import { signedIn } from "../../src/testing/authUsers";
import { randomId, seedCompany, seedKey, seedUser } from "../../src/testing/builders";
import { callables, rejectsWith } from "../../src/testing/callables";
import { FIXTURE, YEAR } from "../../src/testing/esrsFixture";
import { client } from "../../src/testing/http";

const company = client(createCompanyApp());
const { callable, cleanup } = callables();
const report = callable(esrsS1Report);
afterAll(cleanup);


const EXPECTED_VALUES = {
  "S1-14_01": 83.33,
  "S1-14_02": 2,
  "S1-14_03": 1,
  "S1-14_04": 5,
  "S1-14_05": 23.81,
  "S1-14_06": 1,
  "S1-14_07": 21,
  "S1-14_08": 2,
  "S1-14_09": 17,
  "S1-14_10": 33.33,
  "S1-14_11": "ISO 45001, SCC",
};

/** Incidents with every contract field (`copies` times), the year's worked hours (210,000 in 2025) and its coverage. */
async function seedFixture(companyId: string, copies = 1) {
  const writer = firestore().bulkWriter();
  const base = `companies/${companyId}`;
  let seq = 0;
  for (let copy = 0; copy < copies; copy++) {
    for (const i of FIXTURE) {
      seq++;
      writer.set(firestore().doc(`${base}/incidents/inc${seq}`), {
        reference: `INC-2025-${String(seq).padStart(4, "0")}`,
        title: `Incident ${seq}`,
        description: "Seeded for the ESRS S1-14 test.",
        eventDate: i.eventDate ? Timestamp.fromDate(i.eventDate) : null,
        reportedAt: Timestamp.fromDate(i.eventDate ?? new Date()),
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
      });
    }
  }
  const hours: Array<[string, string, number, "app" | "api"]> = [
    ["app-a", "2025-01", 80_000, "app"],
    ["api_2025-01", "2025-01", 30_000, "api"],
    ["app-b", "2025-12", 100_000, "app"],
    ["app-c", "2024-12", 50_000, "app"], // the year before
    ["api_2026-01", "2026-01", 40_000, "api"], // the year after
  ];
  for (const [id, month, value, source] of hours) writer.set(firestore().doc(`${base}/workedHours/${id}`), { month, hours: value, source, updatedAt: Timestamp.now() });
  writer.set(firestore().doc(`${base}/healthSafetyCoverage/${YEAR}`), { headcount: 300, coveredHeadcount: 250, auditedHeadcount: 100, certificationStandards: ["ISO 45001", "SCC"] });
  await writer.close();
}

const valuesOf = (datapoints: Array<{ datapoint_id: string; value: unknown }>) => Object.fromEntries(datapoints.map((d) => [d.datapoint_id, d.value]));

let companyId: string;
let key: string;
let owner: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  companyId = await seedCompany();
  await seedFixture(companyId);
  ({ key } = await seedKey({ api: "company", companyId }));
  owner = await signedIn();
  await seedUser(owner.uid, { companyId, role: "owner" });
});

describe("the ESRS S1-14 calculation on Firestore", () => {
  it("the aggregation queries give exactly the in-memory evaluator's numbers", async () => {
    const stats = { queries: 0, documentsRead: 0 };
    const expected = evaluateInMemory(FIXTURE, YEAR);
    expect(await evaluateByQueries(companyId, YEAR, stats)).toEqual(expected);
    expect(expected).toMatchObject({ "S1-14_02": 2, "S1-14_04": 5, "S1-14_07": 21, "S1-14_09": 17 });
  });

  it("runs the same queries for the fixture and ten copies of it", async () => {
    const large = await seedCompany();
    await seedFixture(large, 10);
    const small = { queries: 0, documentsRead: 0 };
    const tenfold = { queries: 0, documentsRead: 0 };
    await computeEsrsReport(companyId, YEAR, small);
    const result = await computeEsrsReport(large, YEAR, tenfold);
    expect(tenfold).toEqual(small);
    expect(small).toEqual({ queries: 23, documentsRead: 1 });
    expect(valuesOf(result.datapoints)).toMatchObject({ "S1-14_04": 50, "S1-14_05": 238.1, "S1-14_07": 210 });
  });
});

describe("GET /v1/esrs-s1", () => {
  it("JSON: the year's datapoints, the same as the app's callable", async () => {
    const res = await company.get(`/v1/esrs-s1?year=${YEAR}`, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ company_id: companyId, year: YEAR, generated_at: expect.stringMatching(/Z$/) });
    expect(valuesOf(res.body.data.datapoints)).toEqual(EXPECTED_VALUES);
    const fromApp = await report({ companyId, year: YEAR }, owner);
    expect(fromApp).toMatchObject({ companyId, year: YEAR });
    expect(res.body.data.datapoints).toEqual(fromApp.datapoints);
  });

  it("CSV: a file of the same rows, with its type and file name", async () => {
    const json = await company.get(`/v1/esrs-s1?year=${YEAR}&format=json`, key);
    const res = await company.raw().get(`/v1/esrs-s1?year=${YEAR}&format=csv`).set("Authorization", `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="esrs-s1-14-${companyId}-${YEAR}.csv"`);
    expect(res.text).toBe(esrsCsv(json.body.data.datapoints));
    const lines = res.text.split("\r\n");
    expect(lines[0]).toBe("datapoint_id,esrs_paragraph,name,value,unit,note");
    expect(lines).toHaveLength(13);
    expect(lines[5]).toMatch(/^S1-14_05,ESRS S1 88 \(c\),rate_of_recordable_work_related_accidents,23\.81,per_million_hours,/);
    expect(lines[11]).toMatch(/^S1-14_11,ESRS S1 AR 81,health_and_safety_management_system_standards,"ISO 45001, SCC",text,/);
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

  it("defaults to the current UTC year and JSON", async () => {
    const res = await company.get("/v1/esrs-s1", key);
    expect(res.status).toBe(200);
    expect(res.body.data.year).toBe(new Date().getUTCFullYear());
    expect(res.body.data.datapoints).toHaveLength(11);
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
  });
});
