import { Firestore } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import * as findingsRepo from "../../src/repos/findings";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { auditEntriesFor, client } from "../support/http";

const findings = client(createFindingsApp());

async function setup(
  opts: { company?: object; key?: { perMinute?: number; perDay?: number } } = {},
) {
  const companyId = await seedCompany(opts.company ?? {});
  const projectId = await seedProject(companyId);
  const key = await seedKey({ api: "findings", companyId, projectId, rateLimits: opts.key });
  return { companyId, key };
}

/**
 * Seconds until the current UTC minute ends; tests that count a whole minute avoid its last
 * seconds.
 */
async function awayFromMinuteEdge(margin = 12) {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

describe("rate limit and daily quota", () => {
  it("of 100 simultaneous requests with a limit of 60, exactly 60 pass", async () => {
    const { key } = await setup();
    await awayFromMinuteEdge(20);
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => findings.get("/v1/project", key.key)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    for (const res of responses.filter((r) => r.status === 429)) {
      expect(res.body.error.code).toBe("rate_limited");
      expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect(res.headers["retry-after"]).toMatch(/^\d+$/);
    }
    const usage = (await firestore().doc(`apiKeyUsage/${key.hash}`).get()).data();
    expect(usage).toMatchObject({ minuteCount: 60, dayCount: 60 });
  });

  it("a request's count and its audit entry commit together: 100 at once, 60 answered, 60 entries, each settled with its status", async () => {
    const { companyId, key } = await setup();
    await awayFromMinuteEdge(20);
    const rid = `burst-${companyId}`;
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        findings.get("/v1/project", key.key, { "X-Request-Id": rid }),
      ),
    );
    const answered = responses.filter((r) => r.status === 200);
    expect(answered).toHaveLength(60);
    const entries = await auditEntriesFor(companyId, rid);
    const served = entries.filter((e) => e.action === "api.request");
    expect(served).toHaveLength(60);
    expect(served.every((e) => e.status === 200)).toBe(true);
    expect(new Set(served.map((e) => e.requestId))).toEqual(
      new Set(answered.map((r) => r.headers["x-request-id"])),
    );
    // Each entry is stored under its request's id: a request can never leave two.
    const stored = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("action", "==", "api.request")
      .get();
    expect(stored.docs.every((d) => d.id === d.get("requestId"))).toBe(true);
    // The 40 refusals: counted per minute in aggregated entries, never one entry each.
    const refused = entries.filter((e) => e.action === "api.refused");
    expect(refused.reduce((sum, e) => sum + e.count, 0)).toBeLessThanOrEqual(40);
    expect(refused.length).toBeLessThanOrEqual(2);
  });

  it("a burst of reads runs no more handlers than the window has room for", async () => {
    const { key } = await setup({ key: { perMinute: 5 } });
    await awayFromMinuteEdge();
    const queries = jest.spyOn(findingsRepo, "queryFindings");
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => findings.get("/v1/findings?limit=1", key.key)),
    );
    const handled = queries.mock.calls.length;
    queries.mockRestore();
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(15);
    expect(handled).toBe(5);
  });

  it("another instance fills the window between this request's counter read and its count → 429, no handler runs, nothing counted", async () => {
    const { companyId, key } = await setup({ key: { perMinute: 5 } });
    await awayFromMinuteEdge();
    // called below with its own `this`
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = Firestore.prototype.getAll;
    const reads = jest.spyOn(Firestore.prototype, "getAll").mockImplementationOnce(async function (
      this: Firestore,
      ...refs
    ) {
      const snaps = await original.apply(this, refs);
      // The key's other instances use up the minute right after this request read its counter.
      const minute = Math.floor(Date.now() / 60_000);
      const day = Math.floor(Date.now() / 86_400_000);
      await firestore()
        .doc(`apiKeyUsage/${key.hash}`)
        .set({ minuteWindow: minute, minuteCount: 5, dayWindow: day, dayCount: 5 });
      return snaps;
    });
    const queries = jest.spyOn(findingsRepo, "queryFindings");
    const rid = `late-${companyId}`;
    const res = await findings.get("/v1/findings?limit=1", key.key, { "X-Request-Id": rid });
    const handled = queries.mock.calls.length;
    queries.mockRestore();
    reads.mockRestore();
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("rate_limited");
    expect(handled).toBe(0);
    expect(res.headers.ratelimit).toMatch(/^"minute";r=0;t=\d+$/);
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({ action: "api.refused", status: 429 }),
    ]);
    expect((await firestore().doc(`apiKeyUsage/${key.hash}`).get()).data()).toMatchObject({
      minuteCount: 5,
    });
  });

  it("every keyed response carries RateLimit-Policy and RateLimit", async () => {
    const { key } = await setup();
    await awayFromMinuteEdge();
    const first = await findings.get("/v1/project", key.key);
    expect(first.headers["ratelimit-policy"]).toBe('"minute";q=60;w=60, "day";q=10000;w=86400');
    expect(first.headers.ratelimit).toMatch(/^"minute";r=59;t=\d+$/);
    const second = await findings.get("/v1/unknown", key.key);
    expect(second.status).toBe(404);
    expect(second.headers.ratelimit).toMatch(/^"minute";r=58;t=\d+$/);
  });

  it("the company's override applies to its keys, and the key's override wins over it", async () => {
    const { key: companyLimited } = await setup({
      company: { rateLimits: { perMinute: 2, perDay: 500 } },
    });
    await awayFromMinuteEdge();
    const a = await findings.get("/v1/project", companyLimited.key);
    expect(a.headers["ratelimit-policy"]).toBe('"minute";q=2;w=60, "day";q=500;w=86400');
    await findings.get("/v1/project", companyLimited.key);
    expect((await findings.get("/v1/project", companyLimited.key)).status).toBe(429);

    const { key: keyLimited } = await setup({
      company: { rateLimits: { perMinute: 2 } },
      key: { perMinute: 4 },
    });
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await findings.get("/v1/project", keyLimited.key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it("an exhausted daily quota → 429 with Retry-After until UTC midnight", async () => {
    const { key } = await setup({ key: { perDay: 3 } });
    for (let i = 0; i < 3; i++)
      expect((await findings.get("/v1/project", key.key)).status).toBe(200);
    const res = await findings.get("/v1/project", key.key);
    expect(res.status).toBe(429);
    expect(res.body.error.message).toContain("daily quota");
    const untilMidnight = Math.ceil(
      (Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000,
    );
    expect(Math.abs(Number(res.headers["retry-after"]) - untilMidnight)).toBeLessThanOrEqual(2);
    expect(res.headers.ratelimit).toMatch(/^"day";r=0;t=\d+$/);
  });

  it("a malformed override is ignored rather than locking the company out", async () => {
    const { key } = await setup({ company: { rateLimits: { perMinute: "lots", perDay: -1 } } });
    const res = await findings.get("/v1/project", key.key);
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-policy"]).toBe('"minute";q=60;w=60, "day";q=10000;w=86400');
  });

  it("a 429 is audited like any other keyed request", async () => {
    const { companyId, key } = await setup({ key: { perMinute: 1 } });
    await awayFromMinuteEdge();
    await findings.get("/v1/project", key.key);
    const rid = `rl-${companyId}`;
    expect((await findings.get("/v1/project", key.key, { "X-Request-Id": rid })).status).toBe(429);
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({ status: 429 }),
    ]);
  });

  it("refreshes the key's lastUsedAt once a minute, not on every request", async () => {
    const { key } = await setup();
    await awayFromMinuteEdge();
    await findings.get("/v1/project", key.key);
    const first = (await firestore().doc(`apiKeys/${key.hash}`).get()).get("lastUsedAt");
    expect(first).toBeTruthy();
    await findings.get("/v1/project", key.key);
    const second = (await firestore().doc(`apiKeys/${key.hash}`).get()).get("lastUsedAt");
    expect(second.isEqual(first)).toBe(true);
  });
});
