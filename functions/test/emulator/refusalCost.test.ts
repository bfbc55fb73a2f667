import { Firestore, type DocumentReference } from "firebase-admin/firestore";
import request from "supertest";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { FAILURES_PER_MINUTE } from "../../src/http/refusalMemory";
import { generateKey } from "../../src/lib/apiKeyFormat";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { randomAddress } from "../support/http";

/** Denial of wallet, written as the requests: what refused requests cost in reads. */
const app = createFindingsApp();
const send = (key: string, forwarded = randomAddress()) =>
  request(app)
    .get("/v1/project")
    .set("Authorization", `Bearer ${key}`)
    .set("X-Forwarded-For", forwarded);

/**
 * Counts the reads of one key's documents (authentication reads the key with every request it
 * decides).
 */
function countKeyReads(keyHash: string) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with its own `this`
  const original = Firestore.prototype.getAll;
  let reads = 0;
  const spy = jest.spyOn(Firestore.prototype, "getAll").mockImplementation(function (
    this: Firestore,
    ...refs
  ) {
    if ((refs as DocumentReference[]).some((ref) => ref.path === `apiKeys/${keyHash}`)) reads++;
    return original.apply(this, refs);
  });
  return { reads: () => reads, restore: () => spy.mockRestore() };
}

/** Tests that count within one UTC minute keep away from its last seconds. */
async function awayFromMinuteEdge(margin = 15) {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

async function vesselKey(
  keySeed: { revoked?: boolean; rateLimits?: { perMinute: number } } = {},
  company: object = {},
) {
  const companyId = await seedCompany(company);
  const projectId = await seedProject(companyId);
  return seedKey({ api: "findings", companyId, projectId, ...keySeed });
}

describe("refused requests cost a bounded number of reads per key and window", () => {
  it("a key over its minute's limit: 20 more requests are 429 from memory, one read in all", async () => {
    const key = await vesselKey({ rateLimits: { perMinute: 2 } });
    await awayFromMinuteEdge();
    for (let i = 0; i < 2; i++) expect((await send(key.key)).status).toBe(200);
    const counted = countKeyReads(key.hash);
    try {
      const refused = [];
      for (let i = 0; i < 20; i++) refused.push(await send(key.key));
      expect(refused.map((r) => r.status)).toEqual(Array(20).fill(429));
      const last = refused[19];
      expect(Number(last.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(last.headers.ratelimit).toMatch(/^"minute";r=0;t=\d+$/);
      expect(counted.reads()).toBe(1);
    } finally {
      counted.restore();
    }
    expect((await firestore().doc(`apiKeyUsage/${key.hash}`).get()).get("minuteCount")).toBe(2);
  });

  it("a company whose API access is off: 403s repeat from memory, one read in all", async () => {
    const key = await vesselKey({}, { apiAccess: { findingsExport: false, companyApi: false } });
    const counted = countKeyReads(key.hash);
    try {
      for (let i = 0; i < 10; i++) expect((await send(key.key)).status).toBe(403);
      expect(counted.reads()).toBe(1);
    } finally {
      counted.restore();
    }
  });

  it("a revoked key: 401s repeat from memory, one read in all, from any address", async () => {
    const key = await vesselKey({ revoked: true });
    const counted = countKeyReads(key.hash);
    try {
      for (let i = 0; i < 10; i++) expect((await send(key.key)).status).toBe(401);
      expect(counted.reads()).toBe(1);
    } finally {
      counted.restore();
    }
  });

  it("a read key looping on SCIM: each 403 insufficient_scope is counted and audited, then 429s from memory", async () => {
    const companyId = await seedCompany();
    const key = await seedKey({ api: "company", companyId, rateLimits: { perMinute: 3 } });
    const scim = () =>
      request(createCompanyApp())
        .get("/scim/v2/Users")
        .set("Authorization", `Bearer ${key.key}`)
        .set("X-Forwarded-For", randomAddress());
    await awayFromMinuteEdge();
    for (let i = 0; i < 3; i++) {
      const res = await scim();
      expect([res.status, res.body.detail ?? res.body.error?.code]).toEqual([
        403,
        expect.stringMatching(/scope/),
      ]);
    }
    const counted = countKeyReads(key.hash);
    try {
      const refused = [];
      for (let i = 0; i < 20; i++) refused.push((await scim()).status);
      expect(refused).toEqual(Array(20).fill(429));
      expect(counted.reads()).toBe(1);
    } finally {
      counted.restore();
    }
    expect((await firestore().doc(`apiKeyUsage/${key.hash}`).get()).get("minuteCount")).toBe(3);
    const entries = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("action", "==", "api.request")
      .get();
    expect(entries.docs.map((d) => d.get("status"))).toEqual([403, 403, 403]);
  });
});

describe("the failed-authentication guard sees the real client", () => {
  const unknownKeyFrom = (forwarded: string) => send(generateKey("findings"), forwarded);

  it("behind the load balancer (FORWARDED_HOPS=2), one client's failures never block the balancer's other clients", async () => {
    const saved = process.env.FORWARDED_HOPS;
    process.env.FORWARDED_HOPS = "2";
    try {
      await awayFromMinuteEdge();
      const balancer = "34.120.0.1";
      const attacker = randomAddress();
      const statuses = [];
      for (let i = 0; i <= FAILURES_PER_MINUTE; i++)
        statuses.push((await unknownKeyFrom(`${attacker}, ${balancer}`)).status);
      expect(statuses.slice(0, FAILURES_PER_MINUTE)).toEqual(Array(FAILURES_PER_MINUTE).fill(401));
      expect(statuses[FAILURES_PER_MINUTE]).toBe(429);
      // Another client behind the same balancer is not locked out with the attacker.
      expect((await unknownKeyFrom(`${randomAddress()}, ${balancer}`)).status).toBe(401);
    } finally {
      if (saved === undefined) delete process.env.FORWARDED_HOPS;
      else process.env.FORWARDED_HOPS = saved;
    }
  });

  it("called directly, entries a client puts before Google's own change nothing", async () => {
    await awayFromMinuteEdge();
    const client = randomAddress();
    const statuses = [];
    for (let i = 0; i <= FAILURES_PER_MINUTE; i++)
      statuses.push((await unknownKeyFrom(`${randomAddress()}, ${client}`)).status);
    expect(statuses[FAILURES_PER_MINUTE]).toBe(429);
  });

  it("requests that cost no read (no key, malformed keys) never lock out a well-formed key", async () => {
    await awayFromMinuteEdge();
    const client = randomAddress();
    for (let i = 0; i < 3 * FAILURES_PER_MINUTE; i++) {
      const bare = request(app).get("/v1/project").set("X-Forwarded-For", client);
      const res = await (i % 2 ? bare.set("Authorization", "Bearer vfe_not-a-key") : bare);
      expect(res.status).toBe(401);
    }
    expect((await unknownKeyFrom(client)).status).toBe(401);
    const { key } = await vesselKey();
    expect((await send(key, client)).status).toBe(200);
  });

  it("an IPv6 client counts as its /64: rotating the interface id does not reset its budget", async () => {
    await awayFromMinuteEdge();
    const prefix = randomAddress().replace(/::1$/, "");
    const statuses = [];
    for (let i = 0; i <= FAILURES_PER_MINUTE; i++)
      statuses.push((await unknownKeyFrom(`${prefix}:${(i + 1).toString(16)}:0:0:1`)).status);
    expect(statuses[FAILURES_PER_MINUTE]).toBe(429);
  });
});
