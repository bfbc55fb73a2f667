import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { refreshKpiRollup } from "../../src/index";
import { aggregate } from "../../src/repos/aggregates";
import { companyRef } from "../../src/repos/companies";
import { companiesWithCompanyApi } from "../../src/repos/kpiRollups";
import { computeRollup } from "../../src/services/kpiRollup";
import { refreshRollup, refreshRollups } from "../../src/services/rollupJob";
import { signedIn } from "../support/authUsers";
import { randomId, seedCompany, seedKey, seedUser } from "../support/builders";
import { callables, rejectsWith } from "../support/callables";
import { client } from "../support/http";
import { logger } from "../support/logger";
import { countReads } from "../support/readCounter";

const company = client(createCompanyApp());
const { callable, cleanup } = callables();
const refresh = callable(refreshKpiRollup);
afterAll(cleanup);

const NOW = new Date("2026-11-15T12:00:00Z");
const at = (iso: string) => Timestamp.fromDate(new Date(iso));

async function seedArea(
  companyId: string,
  collection: string,
  docs: Array<Record<string, unknown>>,
) {
  const writer = firestore().bulkWriter();
  const writes = docs.map((doc, i) =>
    writer.set(firestore().doc(`companies/${companyId}/${collection}/${collection}-${i}`), doc),
  );
  await Promise.all([...writes, writer.close()]);
}

/** A company whose expected rollup is written out by hand below. */
async function seedFixture(companyId: string, copies = 1) {
  const incidents = [
    { eventDate: at("2026-11-01T00:00:00Z"), status: "reported", type: "injury" },
    { eventDate: at("2026-11-30T23:59:59Z"), status: "closed", type: "near_miss" },
    { eventDate: at("2026-10-31T23:59:59Z"), status: "closed", type: "injury" },
    { eventDate: at("2024-12-01T00:00:00Z"), status: "closed", type: "environmental" }, // first month of the window
    { eventDate: at("2024-11-30T23:59:59Z"), status: "closed", type: "injury" }, // before the window: total only
    { eventDate: at("2026-11-02T00:00:00Z"), status: "reported", type: "injury", hidden: true }, // never counts
    {
      eventDate: at("2026-11-03T00:00:00Z"),
      status: "under_investigation",
      type: "injury",
      hidden: true,
    }, // a status only hidden incidents have
  ];
  const actions = [
    { createdAt: at("2026-11-05T00:00:00Z"), status: "open" },
    { createdAt: at("2026-01-05T00:00:00Z"), status: "closed" },
    { createdAt: at("2026-01-06T00:00:00Z"), status: "closed" },
  ];
  const repeat = <T>(xs: T[]) => Array.from({ length: copies }, () => xs).flat();
  await Promise.all([
    seedArea(companyId, "incidents", repeat(incidents)),
    seedArea(companyId, "actions", repeat(actions)),
    seedArea(
      companyId,
      "inspections",
      repeat([{ createdAt: at("2026-06-01T00:00:00Z"), status: "completed" }]),
    ),
    seedArea(companyId, "workedHours", [
      { month: "2026-11", hours: 1000, source: "app" },
      { month: "2026-11", hours: 250.5, source: "app" },
      { month: "2026-11", hours: 300, source: "api" },
      { month: "2026-10", hours: 900, source: "app" },
      { month: "2024-10", hours: 800, source: "app" }, // before the window: total only
    ]),
  ]);
}

describe("the KPI rollup service", () => {
  it("counts each area per month (24, zero-filled), per status and type, without hidden incidents", async () => {
    const companyId = await seedCompany();
    await seedFixture(companyId);
    const rollup = await computeRollup(companyId, NOW);
    expect(rollup.months).toHaveLength(24);
    expect(rollup.months[0]).toBe("2024-12");
    expect(rollup.months[23]).toBe("2026-11");
    const { incidents, findings, inspections, assets, worked_hours } = rollup.areas;
    expect(incidents.total).toBe(5);
    expect(Object.keys(incidents.by_month)).toEqual(rollup.months);
    expect(incidents.by_month).toMatchObject({
      "2026-11": 2,
      "2026-10": 1,
      "2024-12": 1,
      "2025-06": 0,
    });
    expect(Object.values(incidents.by_month).reduce((a, b) => a + b, 0)).toBe(4);
    expect(incidents.by_status).toEqual({ reported: 1, closed: 4 });
    expect(incidents.by_type).toEqual({ injury: 3, near_miss: 1, environmental: 1 });
    expect(findings).toMatchObject({ total: 3, by_status: { open: 1, closed: 2 } });
    expect(findings.by_month).toMatchObject({ "2026-11": 1, "2026-01": 2 });
    expect(inspections).toMatchObject({ total: 1, by_status: { completed: 1 } });
    expect(assets).toEqual({
      total: 0,
      by_month: Object.fromEntries(rollup.months.map((m) => [m, 0])),
      by_status: {},
    });
    expect(worked_hours.total).toBe(3250.5);
    expect(worked_hours.by_month).toMatchObject({
      "2026-11": 1550.5,
      "2026-10": 900,
      "2026-09": 0,
    });
    expect(worked_hours.by_source).toEqual({ app: 2950.5, api: 300 });
  });

  it("counts months on the company's reporting calendar, as ESRS does (one company, one calendar)", async () => {
    const companyId = await seedCompany({ reportingTimeZone: "Europe/Berlin" });
    await seedFixture(companyId);
    const rollup = await computeRollup(companyId, NOW);
    expect(rollup.months[23]).toBe("2026-11");
    // Berlin is UTC+1 in November and December: 2026-11-30T23:59:59Z is 1 December there (after the
    // window, total only), 2026-10-31T23:59:59Z is 1 November, and 2024-11-30T23:59:59Z (before the
    // UTC window) is 1 December 2024, the window's first month, beside 2024-12-01T00:00:00Z.
    expect(rollup.areas.incidents.by_month).toMatchObject({
      "2026-11": 2,
      "2026-10": 0,
      "2024-12": 2,
    });
    expect(Object.values(rollup.areas.incidents.by_month).reduce((a, b) => a + b, 0)).toBe(4);
  });

  it("runs the same number of queries for 1 and 20 times the documents", async () => {
    const small = await seedCompany();
    const large = await seedCompany();
    await seedFixture(small, 1);
    await seedFixture(large, 20);
    const statsSmall = await countReads(() => computeRollup(small, NOW));
    const { result: rollup, ...statsLarge } = await countReads(() => computeRollup(large, NOW));
    expect(rollup.areas.incidents.total).toBe(100);
    expect(statsLarge.requests).toBe(statsSmall.requests);
    // Only the hidden incidents are read (2 per copy, subtracted in memory); nothing else grows
    // with the data.
    expect(statsLarge.documents - statsSmall.documents).toBe(19 * 2);
    expect(statsSmall.documents).toBeLessThan(30);
  });

  it("an aggregation is billed a read per 1,000 index entries it matches", async () => {
    const companyId = await seedCompany();
    const incidents = companyRef(companyId).collection("incidents");
    for (let start = 0; start < 2500; start += 500) {
      const batch = firestore().batch();
      for (let i = start; i < start + 500; i++) batch.set(incidents.doc(`i${i}`), { n: 1 });
      await batch.commit();
    }
    const counted = await countReads(() =>
      aggregate(companyId, { collection: "incidents", filters: [] }),
    );
    expect(counted.result).toBe(2500);
    expect(counted.reads).toBe(3);
    expect((await countReads(() => incidents.count().get())).reads).toBe(3);
  });
});

describe("GET /v1/kpis", () => {
  it("404 not_found until a rollup exists, then serves the stored one", async () => {
    const companyId = await seedCompany();
    const { key } = await seedKey({ api: "company", companyId });
    const before = await company.get("/v1/kpis", key);
    expect(before.status).toBe(404);
    expect(before.body.error.message).toMatch(/has not been generated yet/);
    await seedFixture(companyId);
    await refreshRollup(companyId, NOW);
    const res = await company.get("/v1/kpis", key);
    expect(res.status).toBe(200);
    expect(res.body.data.generated_at).toBe(NOW.toISOString());
    expect(res.body.data.areas.incidents.by_status).toEqual({ reported: 1, closed: 4 });
    expect(Object.keys(res.body.data.areas)).toEqual([
      "incidents",
      "findings",
      "inspections",
      "assets",
      "risk_assessments",
      "locations",
      "worked_hours",
    ]);
  });

  it("a stored rollup that no longer fits its documented shape is treated as not generated", async () => {
    const companyId = await seedCompany();
    const { key } = await seedKey({ api: "company", companyId });
    await firestore()
      .doc(`companies/${companyId}/kpiRollups/latest`)
      .set({ generatedAt: Timestamp.now(), months: [], areas: { incidents: "broken" } });
    expect((await company.get("/v1/kpis", key)).status).toBe(404);
  });
});

describe("the daily job and the refreshKpiRollup callable", () => {
  it("the job takes every enterprise company with the company API on, and only those", async () => {
    const on = await seedCompany();
    const off = await seedCompany({ apiAccess: { findingsExport: true, companyApi: false } });
    const pro = await seedCompany({ plan: "pro" });
    const selected = await companiesWithCompanyApi();
    expect(selected).toContain(on);
    expect(selected).not.toContain(off);
    expect(selected).not.toContain(pro);
  });

  it("the job refreshes each company; one that fails is logged and the others are still done", async () => {
    const a = await seedCompany();
    const b = await seedCompany();
    const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
    const result = await refreshRollups([a, "bad/id", b], NOW);
    expect(result).toEqual({ refreshed: 2, failed: 1 });
    expect(error).toHaveBeenCalledWith(
      "kpi_rollup.failed",
      expect.any(Error),
      expect.objectContaining({ companyId: "bad/id" }),
    );
    error.mockRestore();
    for (const id of [a, b])
      expect((await firestore().doc(`companies/${id}/kpiRollups/latest`).get()).exists).toBe(true);
  });

  it("the owner and an Admin may refresh; others may not; an unknown company is not-found", async () => {
    const companyId = await seedCompany();
    const owner = await signedIn();
    const standard = await signedIn();
    const deactivatedOwner = await signedIn();
    await seedUser(owner.uid, { companyId, role: "owner" });
    await seedUser(standard.uid, { companyId, role: "standard" });
    await seedUser(deactivatedOwner.uid, { companyId, role: "owner", status: "deactivated" });
    const admin = await signedIn({ admin: true });
    const result = await refresh({ companyId }, owner);
    expect(result).toMatchObject({
      companyId,
      months: expect.any(Array),
      areas: expect.objectContaining({ incidents: expect.any(Object) }),
    });
    expect((await firestore().doc(`companies/${companyId}/kpiRollups/latest`).get()).exists).toBe(
      true,
    );
    // A rollup costs hundreds of aggregations: one refresh per company per 10 minutes.
    await rejectsWith(refresh({ companyId }, admin), "resource-exhausted");
    await firestore()
      .doc(`companies/${companyId}/kpiRollups/refresh`)
      .update({ claimedAt: Timestamp.fromMillis(Date.now() - 10 * 60_000) });
    await expect(refresh({ companyId }, admin)).resolves.toMatchObject({ companyId });
    await rejectsWith(refresh({ companyId }, standard), "permission-denied");
    await rejectsWith(refresh({ companyId }, deactivatedOwner), "permission-denied");
    await rejectsWith(refresh({ companyId }, null), "unauthenticated");
    await rejectsWith(refresh({ companyId: randomId("nope") }, admin), "not-found");
    await rejectsWith(refresh({ companyId, extra: 1 }, admin), "invalid-argument");
  });

  it("refreshes asked at once claim the company's refresh once: exactly one runs", async () => {
    const companyId = await seedCompany();
    const admin = await signedIn({ admin: true });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => refresh({ companyId }, admin)),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === "rejected")
        expect((o.reason as { code: string }).code).toBe("resource-exhausted");
  });

  it("a company not on the enterprise plan gets no report (failed-precondition), even for an Admin", async () => {
    const companyId = await seedCompany({ plan: "pro" });
    const admin = await signedIn({ admin: true });
    await rejectsWith(refresh({ companyId }, admin), "failed-precondition");
    expect((await firestore().doc(`companies/${companyId}/kpiRollups/latest`).get()).exists).toBe(
      false,
    );
  });
});
