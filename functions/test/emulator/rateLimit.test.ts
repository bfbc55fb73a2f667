import { createFindingsApp } from "../../src/findings/app";
import { firestore } from "../../src/config/firebase";
import { seedCompany, seedKey, seedProject } from "../../src/testing/builders";
import { auditEntriesFor, client } from "../../src/testing/http";

const findings = client(createFindingsApp());

async function setup(opts: { company?: object; key?: { perMinute?: number; perDay?: number } } = {}) {
  const companyId = await seedCompany(opts.company ?? {});
  const projectId = await seedProject(companyId);
  const key = await seedKey({ api: "findings", companyId, projectId, rateLimits: opts.key });
  return { companyId, key };
}

/** Seconds until the current UTC minute ends; tests that count a whole minute avoid its last seconds. */
async function awayFromMinuteEdge(margin = 12) {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

describe("rate limit and daily quota", () => {
  it("of 100 simultaneous requests with a limit of 60, exactly 60 pass", async () => {
    const { key } = await setup();
    await awayFromMinuteEdge(20);
    const responses = await Promise.all(Array.from({ length: 100 }, () => findings.get("/v1/project", key.key)));
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
    const { key: companyLimited } = await setup({ company: { rateLimits: { perMinute: 2, perDay: 500 } } });
    await awayFromMinuteEdge();
    const a = await findings.get("/v1/project", companyLimited.key);
    expect(a.headers["ratelimit-policy"]).toBe('"minute";q=2;w=60, "day";q=500;w=86400');
    await findings.get("/v1/project", companyLimited.key);
    expect((await findings.get("/v1/project", companyLimited.key)).status).toBe(429);

    const { key: keyLimited } = await setup({ company: { rateLimits: { perMinute: 2 } }, key: { perMinute: 4 } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await findings.get("/v1/project", keyLimited.key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it("an exhausted daily quota → 429 with Retry-After until UTC midnight", async () => {
    const { key } = await setup({ key: { perDay: 3 } });
    for (let i = 0; i < 3; i++) expect((await findings.get("/v1/project", key.key)).status).toBe(200);
    const res = await findings.get("/v1/project", key.key);
    expect(res.status).toBe(429);
    expect(res.body.error.message).toContain("daily quota");
    const untilMidnight = Math.ceil((Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000);
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
    expect(await auditEntriesFor(companyId, rid)).toEqual([expect.objectContaining({ status: 429 })]);
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
