import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { monthKey } from "../../src/lib/months";
import { randomId, seedCompany, seedKey } from "../support/builders";
import { auditEntriesFor, client } from "../support/http";

const company = client(createCompanyApp());
let companyId: string;
let prov: string;
let read: string;

const now = new Date();
const thisMonth = monthKey(now.getUTCFullYear(), now.getUTCMonth());
const nextMonth = monthKey(now.getUTCFullYear(), now.getUTCMonth() + 1).replace(
  /^(\d{4})-13$/,
  (_, y) => `${Number(y) + 1}-01`,
);

const post = (body: unknown, key = prov, rid = randomId("rq")) =>
  company
    .raw()
    .post("/v1/worked-hours")
    .set("Authorization", `Bearer ${key}`)
    .set("X-Request-Id", rid)
    .send(body as object);

beforeAll(async () => {
  companyId = await seedCompany();
  prov = (
    await seedKey({
      api: "company",
      companyId,
      scopes: ["read", "provisioning"],
      rateLimits: { perMinute: 10_000 },
    })
  ).key;
  read = (await seedKey({ api: "company", companyId, rateLimits: { perMinute: 10_000 } })).key;
  const coll = firestore().collection(`companies/${companyId}/workedHours`);
  await coll.doc("app-2025-03-a").set({ month: "2025-03", hours: 1000, source: "app" });
  await coll.doc("app-2025-03-b").set({ month: "2025-03", hours: 250.5, source: "app" });
  await coll.doc("legacy-2025-04").set({ month: "2025-04", hours: 70 }); // no source: recorded in the app
  await coll.doc("broken-2025-05").set({ month: "2025-05", hours: "lots", source: "app" });
});

describe("POST /v1/worked-hours", () => {
  it("stores the month as the API's value: 201 the first time, 200 on a replace; app records untouched", async () => {
    const rid = randomId("rq");
    const first = await post({ month: "2025-03", hours: 300 }, prov, rid);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      data: {
        month: "2025-03",
        hours: 300,
        source: "api",
        worker_category: null,
        updated_at: expect.any(String),
      },
    });
    const again = await post({ month: "2025-03", hours: 320.25 });
    expect(again.status).toBe(200);
    expect(again.body.data.hours).toBe(320.25);
    const stored = await firestore().doc(`companies/${companyId}/workedHours/api_2025-03`).get();
    expect(stored.data()).toMatchObject({ month: "2025-03", hours: 320.25, source: "api" });
    expect(stored.data()).not.toHaveProperty("workerCategory");
    expect(
      (await firestore().doc(`companies/${companyId}/workedHours/app-2025-03-a`).get()).data(),
    ).toEqual({ month: "2025-03", hours: 1000, source: "app" });
    const entries = await auditEntriesFor(companyId, rid);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          class: "privileged",
          action: "worked_hours.set",
          target: { type: "worked_hours", id: "2025-03" },
          status: null,
        }),
        expect.objectContaining({
          class: "privileged",
          action: "api.request",
          status: 201,
          method: "POST",
          path: "/v1/worked-hours",
        }),
      ]),
    );
  });

  it("per worker category: one value per group beside each other, audited per group; the month's hours are their sum", async () => {
    const rid = randomId("rq");
    const employees = await post(
      { month: "2025-06", hours: 800, worker_category: "employees" },
      prov,
      rid,
    );
    expect(employees.status).toBe(201);
    expect(employees.body.data).toMatchObject({
      month: "2025-06",
      hours: 800,
      worker_category: "employees",
    });
    expect(
      (await post({ month: "2025-06", hours: 200, worker_category: "non_employees" })).status,
    ).toBe(201);
    expect(
      (await post({ month: "2025-06", hours: 210, worker_category: "non_employees" })).status,
    ).toBe(200);
    expect(
      (
        await firestore().doc(`companies/${companyId}/workedHours/api_2025-06_employees`).get()
      ).data(),
    ).toMatchObject({ month: "2025-06", hours: 800, source: "api", workerCategory: "employees" });
    expect(await auditEntriesFor(companyId, rid)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: "worked_hours.set",
          target: { type: "worked_hours", id: "2025-06/employees" },
        }),
      ]),
    );
    const june = (await company.get("/v1/worked-hours?year=2025", read)).body.data.months[5];
    expect(june).toEqual({
      month: "2025-06",
      app_hours: 0,
      api_hours: 1010,
      total_hours: 1010,
      by_worker_category: { employees: 800, non_employees: 210, unattributed: 0 },
    });
  });

  it("a month holds one kind: a value without a category beside one per category is 409 in both orders, until the stored kind is 0", async () => {
    const apiHours = async (month: string) =>
      (await company.get("/v1/worked-hours?year=2025", read)).body.data.months.find(
        (m: { month: string }) => m.month === month,
      ).api_hours;
    expect((await post({ month: "2025-09", hours: 1000 })).status).toBe(201);
    const rid = randomId("rq");
    const mixed = await post(
      { month: "2025-09", hours: 1000, worker_category: "employees" },
      prov,
      rid,
    );
    expect(mixed.status).toBe(409);
    expect(mixed.body.error.code).toBe("conflict");
    expect(mixed.body.error.message).toContain("without a worker_category");
    expect(mixed.body.error.message).toContain('{"month":"2025-09","hours":0}');
    expect(await auditEntriesFor(companyId, rid)).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "worked_hours.set" })]),
    );
    expect(await apiHours("2025-09")).toBe(1000);
    // Switching: the stored kind set to 0 first.
    expect((await post({ month: "2025-09", hours: 0 })).status).toBe(200);
    expect(
      (await post({ month: "2025-09", hours: 600, worker_category: "employees" })).status,
    ).toBe(201);
    expect(await apiHours("2025-09")).toBe(600);
    const back = await post({ month: "2025-09", hours: 5 });
    expect(back.status).toBe(409);
    expect(back.body.error.message).toContain("per worker_category (employees)");
    expect(back.body.error.message).toContain(
      '{"month":"2025-09","hours":0,"worker_category":"employees"}',
    );
    expect(await apiHours("2025-09")).toBe(600);
  });

  it("a large company's month (7,000 people, 1,200,000 h) is accepted", async () => {
    expect((await post({ month: "2024-02", hours: 1_200_000 })).status).toBe(201);
  });

  it("the current month is accepted", async () => {
    expect((await post({ month: thisMonth, hours: 0 })).status).toBeLessThan(300);
  });

  it.each([
    [{ month: "2025-13", hours: 1 }, 'Invalid body parameter "month"'],
    [{ month: "2025-3", hours: 1 }, 'Invalid body parameter "month"'],
    [{ month: "1899-12", hours: 1 }, 'Invalid body parameter "month"'],
    [{ month: nextMonth, hours: 1 }, "not in the future"],
    [
      { month: "2025-03", hours: -1 },
      'Invalid body parameter "hours": must be from 0 to 1,000,000,000.',
    ],
    [
      { month: "2025-03", hours: 1_000_000_001 },
      'Invalid body parameter "hours": must be from 0 to 1,000,000,000.',
    ],
    [{ month: "2025-03", hours: "12" }, 'Invalid body parameter "hours": must be a number.'],
    [{ month: "2025-03" }, 'Invalid body parameter "hours"'],
    [{ hours: 1 }, 'Invalid body parameter "month": is required.'],
    [{ month: ["2025-10"], hours: 1 }, 'Invalid body parameter "month": must be a string YYYY-MM.'],
    [{ month: "2025-03", hours: 1, source: "app" }, 'Unknown body parameter "source".'],
    [
      { month: "2025-03", hours: 1, worker_category: "contractors" },
      'Invalid body parameter "worker_category": must be "employees" or "non_employees".',
    ],
    [[{ month: "2025-03", hours: 1 }], "Invalid body parameter"],
  ])("%j → 400 naming the problem, nothing written", async (body, message) => {
    const changes = () =>
      firestore()
        .collection(`companies/${companyId}/auditLogs`)
        .where("action", "==", "worked_hours.set")
        .count()
        .get();
    const before = (await changes()).data().count;
    const res = await post(body);
    expect((await changes()).data().count).toBe(before);
    expect(
      (await firestore().doc(`companies/${companyId}/workedHours/api_2025-03`).get()).get("hours"),
    ).toBe(320.25);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain(message);
  });

  it("malformed JSON → 400; a body that is not JSON → 415", async () => {
    const bad = await company
      .raw()
      .post("/v1/worked-hours")
      .set("Authorization", `Bearer ${prov}`)
      .set("Content-Type", "application/json")
      .send('{"month":');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    const form = await company
      .raw()
      .post("/v1/worked-hours")
      .set("Authorization", `Bearer ${prov}`)
      .type("form")
      .send("month=2025-03&hours=1");
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe("unsupported_media_type");
  });

  it("a key without the provisioning scope → 403 insufficient_scope", async () => {
    const res = await post({ month: "2025-03", hours: 1 }, read);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "insufficient_scope",
      message: expect.stringContaining('"provisioning" scope'),
    });
  });

  it("simultaneous posts for one month: one 201, the rest 200, one audited change each, the last value stored", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post({ month: "2024-11", hours: i })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const snap = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("action", "==", "worked_hours.set")
      .where("target.id", "==", "2024-11")
      .get();
    expect(snap.size).toBe(8);
    const stored = (
      await firestore().doc(`companies/${companyId}/workedHours/api_2024-11`).get()
    ).get("hours");
    expect(results.map((r) => r.body.data.hours)).toContain(stored);
  });
});

describe("GET /v1/worked-hours", () => {
  it("answers each month of the year by source; unreadable records are left out", async () => {
    const res = await company.get("/v1/worked-hours?year=2025", read);
    expect(res.status).toBe(200);
    expect(res.body.data.year).toBe(2025);
    expect(res.body.data.months).toHaveLength(12);
    const none = { employees: 0, non_employees: 0 };
    expect(res.body.data.months[2]).toEqual({
      month: "2025-03",
      app_hours: 1250.5,
      api_hours: 320.25,
      total_hours: 1570.75,
      by_worker_category: { ...none, unattributed: 1570.75 },
    });
    expect(res.body.data.months[3]).toEqual({
      month: "2025-04",
      app_hours: 70,
      api_hours: 0,
      total_hours: 70,
      by_worker_category: { ...none, unattributed: 70 },
    });
    expect(res.body.data.months[4]).toEqual({
      month: "2025-05",
      app_hours: 0,
      api_hours: 0,
      total_hours: 0,
      by_worker_category: { ...none, unattributed: 0 },
    });
  });

  it("defaults to the current year; a future or malformed year → 400", async () => {
    expect((await company.get("/v1/worked-hours", read)).body.data.year).toBe(now.getUTCFullYear());
    for (const year of [String(now.getUTCFullYear() + 1), "25", "2025x"]) {
      const res = await company.get(`/v1/worked-hours?year=${year}`, read);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('Invalid query parameter "year"');
    }
  });

  it("requests made with a provisioning key are audited as privileged, reads included", async () => {
    const rid = randomId("rq");
    await company.get("/v1/worked-hours?year=2025", prov, { "X-Request-Id": rid });
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({ class: "privileged", action: "api.request", status: 200 }),
    ]);
  });
});
