import { WriteBatch } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { consumeSharded } from "../../src/repos/usageShards";
import { decideMany, shardLimits } from "../../src/services/rateLimit";
import { randomId, seedCompany, seedKey, seedProject } from "../support/builders";
import { auditEntriesFor, client } from "../support/http";

const findings = client(createFindingsApp());

async function setup(perMinute: number) {
  const companyId = await seedCompany({});
  const projectId = await seedProject(companyId);
  const key = await seedKey({ api: "findings", companyId, projectId, rateLimits: { perMinute } });
  return { companyId, key };
}

async function awayFromMinuteEdge(margin = 20) {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

/** Every counter document of the key: its own (shard 0) and its `shards/{i}`. */
async function shardCounts(keyHash: string) {
  const own = await firestore().doc(`apiKeyUsage/${keyHash}`).get();
  const rest = await firestore().collection(`apiKeyUsage/${keyHash}/shards`).get();
  return [own, ...rest.docs].filter((d) => d.exists).map((d) => d.data()!);
}
const sum = (docs: Array<Record<string, unknown>>, field: string) =>
  docs.reduce((n, d) => n + Number(d[field] ?? 0), 0);

describe("sharded rate-limit counter (limits above 60/min)", () => {
  it("many instances on a 120/min limit over 4 shards: exactly 120 admitted, the shards sum to 120", async () => {
    const keyHash = randomId("hash");
    await firestore().doc(`apiKeys/${keyHash}`).set({ placeholder: true });
    await awayFromMinuteEdge();
    const limits = { perMinute: 120, perDay: 1000 };
    // Each direct call stands for a different instance: no in-process coalescing between them.
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, () =>
        consumeSharded(keyHash, 4, 5, (stored, nowMs, count, shard) =>
          decideMany(stored, nowMs, shardLimits(limits, 4, shard), count),
        ),
      ),
    );
    const decisions = outcomes.flatMap((o) => o.decisions);
    expect(decisions.filter((d) => d !== null)).toHaveLength(120);
    expect(decisions.filter((d) => d === null)).toHaveLength(180);
    const docs = await shardCounts(keyHash);
    expect(docs).toHaveLength(4);
    expect(docs.map((d) => d.minuteCount)).toEqual([30, 30, 30, 30]);
    expect(sum(docs, "dayCount")).toBe(120);
  });

  it("300 requests at once with a limit of 240/min (4 shards): exactly 240 answered, counted and audited", async () => {
    const { companyId, key } = await setup(240);
    await awayFromMinuteEdge();
    const rid = `shards-${companyId}`;
    const responses = await Promise.all(
      Array.from({ length: 300 }, () =>
        findings.get("/v1/project", key.key, { "X-Request-Id": rid }),
      ),
    );
    const answered = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(answered).toHaveLength(240);
    expect(refused).toHaveLength(60);
    for (const res of refused) {
      expect(res.body.error.code).toBe("rate_limited");
      expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(60);
    }
    expect(answered[0].headers["ratelimit-policy"]).toBe(
      '"minute";q=240;w=60, "day";q=10000;w=86400',
    );
    const docs = await shardCounts(key.hash);
    expect(docs).toHaveLength(4);
    expect(docs.map((d) => d.minuteCount)).toEqual([60, 60, 60, 60]);
    expect(sum(docs, "dayCount")).toBe(240);
    const served = (await auditEntriesFor(companyId, rid)).filter(
      (e) => e.action === "api.request",
    );
    expect(served).toHaveLength(240);
    expect(served.every((e) => e.status === 200)).toBe(true);
    expect(new Set(served.map((e) => e.requestId))).toEqual(
      new Set(answered.map((r) => r.headers["x-request-id"])),
    );
  });

  it("a request is admitted while any shard has room, whichever shard it tries first; refused once all are full", async () => {
    const { key } = await setup(240);
    await awayFromMinuteEdge();
    const minuteWindow = Math.floor(Date.now() / 60_000);
    const dayWindow = Math.floor(Date.now() / 86_400_000);
    const full = { minuteWindow, minuteCount: 60, dayWindow, dayCount: 60 };
    await firestore().doc(`apiKeyUsage/${key.hash}`).set(full);
    for (const i of [1, 2]) await firestore().doc(`apiKeyUsage/${key.hash}/shards/${i}`).set(full);
    await firestore()
      .doc(`apiKeyUsage/${key.hash}/shards/3`)
      .set({ ...full, minuteCount: 50, dayCount: 50 });
    // Three shards in four are full: most of these start on a full one and must move on.
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await findings.get("/v1/project", key.key)).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const last = await findings.get("/v1/project", key.key);
    expect(last.status).toBe(429);
    expect(last.headers.ratelimit).toMatch(/^"minute";r=0;t=\d+$/);
    const docs = await shardCounts(key.hash);
    expect(docs.map((d) => d.minuteCount)).toEqual([60, 60, 60, 60]);
  });
  it("a shard that stays contended is passed over: the other shard admits; with it full, a 429 'retry after 1 s' counts nothing", async () => {
    const { companyId, key } = await setup(120);
    await awayFromMinuteEdge(30);
    // called below with its own `this`
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const commit = WriteBatch.prototype.commit;
    const spy = jest.spyOn(WriteBatch.prototype, "commit").mockImplementation(function (
      this: WriteBatch,
    ) {
      // Shard 1 loses every compare-and-swap, as if other instances always won it.
      const ops = (this as unknown as { _ops?: Array<{ docPath: string }> })._ops ?? [];
      if (ops.some((o) => o.docPath === `apiKeyUsage/${key.hash}/shards/1`))
        return Promise.reject(Object.assign(new Error("contended"), { code: 9 }));
      return commit.apply(this);
    });
    try {
      const ok = [];
      for (let i = 0; i < 3; i++) ok.push((await findings.get("/v1/project", key.key)).status);
      expect(ok).toEqual([200, 200, 200]);
      const minuteWindow = Math.floor(Date.now() / 60_000);
      const dayWindow = Math.floor(Date.now() / 86_400_000);
      await firestore()
        .doc(`apiKeyUsage/${key.hash}`)
        .set({ minuteWindow, minuteCount: 60, dayWindow, dayCount: 60 });
      const rid = `contended-${companyId}`;
      const res = await findings.get("/v1/project", key.key, { "X-Request-Id": rid });
      expect(res.status).toBe(429);
      expect(res.headers["retry-after"]).toBe("1");
      const entries = await auditEntriesFor(companyId, rid);
      expect(entries.filter((e) => e.action === "api.request")).toEqual([]);
      expect((await firestore().doc(`apiKeyUsage/${key.hash}`).get()).get("minuteCount")).toBe(60);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});
