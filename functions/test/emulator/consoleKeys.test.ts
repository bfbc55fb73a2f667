import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import {
  apiKeyUsage,
  createApiKey,
  listApiKeys,
  listAuditTrail,
  revokeApiKey,
  rollApiKey,
} from "../../src/index";
import { DAY_MS } from "../../src/lib/dates";
import { auditEntry } from "../../src/repos/auditLogs";
import { consolePeople, signedIn, type SignedIn } from "../support/authUsers";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { callables, rejectsWith } from "../support/callables";
import { client } from "../support/http";

/** The key callables the reference console (console-web/) added: roll and usage. */
const { callable, cleanup } = callables();
afterAll(cleanup);
const findings = client(createFindingsApp());

const create = callable(createApiKey);
const list = callable(listApiKeys);
const revoke = callable(revokeApiKey);
const roll = callable(rollApiKey);
const usage = callable(apiKeyUsage);
const trail = callable(listAuditTrail);

type Key = Record<string, unknown> & { key: string; prefix: string };
const people: Record<string, SignedIn> = {};
let companyId: string;
let projectId: string;

beforeAll(async () => {
  companyId = await seedCompany();
  projectId = await seedProject(companyId);
  const otherCompany = await seedCompany();
  Object.assign(people, await consolePeople(companyId, otherCompany));
});

const newKey = async (name: string) =>
  (await create({ companyId, api: "findings", name, projectId }, people.ownerKeyUser)) as Key;
const keysOf = async () =>
  ((await list({ companyId, api: "findings" }, people.ownerKeyUser)) as { keys: Key[] }).keys;
const status = async (key: string) => (await findings.get("/v1/project", key)).status;
/** Moves a key's stored expiry, as time passing would. */
const expireAt = (key: string, ms: number) =>
  firestore()
    .collection("apiKeys")
    .where("prefix", "==", key.slice(0, 12))
    .get()
    .then((snap) => snap.docs[0].ref.update({ expiresAt: Timestamp.fromMillis(ms) }));

describe("rollApiKey", () => {
  it("gives a new key at once; the old one answers 200 until its expiry, then 401 like a revoked key", async () => {
    const old = await newKey("ERP");
    expect(await status(old.key)).toBe(200);
    const before = Date.now();
    const rolled = (await roll(
      { companyId, prefix: old.prefix, expiresIn: "1h" },
      people.ownerKeyUser,
    )) as Key & { rolled: Record<string, string> };
    expect(rolled).toMatchObject({ name: "ERP", projectId, scopes: ["read"], expiresAt: null });
    expect(rolled.prefix).not.toBe(old.prefix);
    const expires = Date.parse(rolled.rolled.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(3_600_000 - 1_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect([await status(old.key), await status(rolled.key)]).toEqual([200, 200]);
    const listed = (await keysOf()).find((k) => k.prefix === old.prefix)!;
    expect(listed.expiresAt).toBe(rolled.rolled.expiresAt);

    await expireAt(old.key, Date.now() - 1);
    expect(await status(old.key)).toBe(401);
    expect(await status(rolled.key)).toBe(200);
  });

  it("expiresIn now: the old key is refused on its next request", async () => {
    const old = await newKey("now");
    await roll({ companyId, prefix: old.prefix, expiresIn: "now" }, people.admin);
    expect(await status(old.key)).toBe(401);
  });

  it("records both keys in the audit trail, in the transaction of the roll", async () => {
    const old = await newKey("audited");
    const rolled = (await roll(
      { companyId, prefix: old.prefix, expiresIn: "24h" },
      people.ownerKeyUser,
    )) as Key;
    const { entries } = (await trail({ companyId, class: "privileged" }, people.ownerKeyUser)) as {
      entries: Array<Record<string, unknown>>;
    };
    const rolledEntry = entries.find((e) => e.action === "api_key.rolled")!;
    const createdEntry = entries.find(
      (e) => e.action === "api_key.created" && e.target === rolled.prefix,
    )!;
    const expiresAt = (await keysOf()).find((k) => k.prefix === old.prefix)!.expiresAt;
    // The person as they cannot rename themselves: their user document's e-mail address.
    expect(rolledEntry).toMatchObject({
      target: old.prefix,
      who: `${people.ownerKeyUser.uid}@private-canary.example`,
      successor: rolled.prefix,
      expiresAt,
    });
    expect(rolledEntry.what).toContain(
      `${old.prefix} of the findings export; key ${rolled.prefix}`,
    );
    expect(rolledEntry.what).toContain(
      `works until ${String(expiresAt).slice(0, 16).replace("T", " ")} UTC`,
    );
    expect(createdEntry.at).toBe(rolledEntry.at);
    const stored = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("action", "==", "api_key.rolled")
      .where("target.id", "==", old.prefix)
      .get();
    expect(stored.docs[0].get("successor")).toBe(rolled.prefix);
    expect((stored.docs[0].get("expiresAt") as Timestamp).toDate().toISOString()).toBe(expiresAt);
  });

  it("keeps the key's own limits; a rolled, revoked or unknown key cannot be rolled", async () => {
    const seeded = await seedKey({
      api: "findings",
      companyId,
      projectId,
      rateLimits: { perDay: 500 },
    });
    const rolled = (await roll(
      { companyId, prefix: seeded.prefix, expiresIn: "7d" },
      people.ownerKeyUser,
    )) as Key;
    const listed = (await keysOf()).find((k) => k.prefix === rolled.prefix)!;
    expect(listed.rateLimits).toMatchObject({ perDay: 500, source: { perDay: "key" } });
    const again = { companyId, prefix: seeded.prefix, expiresIn: "1h" };
    await rejectsWith(roll(again, people.ownerKeyUser), "not-found");
    const revoked = await newKey("revoked");
    await revoke({ companyId, prefix: revoked.prefix }, people.ownerKeyUser);
    await rejectsWith(roll({ ...again, prefix: revoked.prefix }, people.ownerKeyUser), "not-found");
    await rejectsWith(roll({ ...again, expiresIn: "2h" }, people.ownerKeyUser), "invalid-argument");
  });

  it("the same people as creating a key: not a standard user, not the owner without Key User", async () => {
    const old = await newKey("guarded");
    for (const who of ["standard", "ownerOnly", "otherOwner"])
      await rejectsWith(
        roll({ companyId, prefix: old.prefix, expiresIn: "1h" }, people[who]),
        "permission-denied",
      );
  });

  it("a key counts towards the 20 while it works: a roll that keeps the old key needs a free place", async () => {
    const company = await seedCompany();
    const project = await seedProject(company);
    const seeded = await Promise.all(
      Array.from({ length: 20 }, () =>
        seedKey({ api: "findings", companyId: company, projectId: project }),
      ),
    );
    const input = { companyId: company, api: "findings", name: "21st", projectId: project };
    await rejectsWith(create(input, people.admin), "resource-exhausted");
    const keep = { companyId: company, prefix: seeded[0].prefix, expiresIn: "7d" };
    await rejectsWith(roll(keep, people.admin), "resource-exhausted");
    await roll({ ...keep, expiresIn: "now" }, people.admin);
    await rejectsWith(create(input, people.admin), "resource-exhausted");
    await revoke({ companyId: company, prefix: seeded[1].prefix }, people.admin);
    await expect(create(input, people.admin)).resolves.toMatchObject({ name: "21st" });
  });
});

describe("revokeApiKey", () => {
  it("refuses a prefix two live keys share (as the demo company's keys do): neither is revoked", async () => {
    const random = "Twins000000000000000000000000000";
    const one = await seedKey({ api: "findings", companyId, projectId, random });
    const two = await seedKey({
      api: "findings",
      companyId,
      projectId,
      random: `${random.slice(0, 8)}${"B".repeat(24)}`,
    });
    expect(two.prefix).toBe(one.prefix);
    await rejectsWith(
      revoke({ companyId, prefix: one.prefix }, people.ownerKeyUser),
      "invalid-argument",
    );
    expect([await status(one.key), await status(two.key)]).toEqual([200, 200]);
  });
});

describe("usage figures", () => {
  it("the listing gives each working key's requests today against its daily quota", async () => {
    const made = await newKey("counted");
    await status(made.key);
    await status(made.key);
    const listed = (await keysOf()).find((k) => k.prefix === made.prefix)!;
    expect(listed).toMatchObject({ requestsToday: 2, rateLimits: { perDay: 10_000 } });
    expect(listed.lastUsedAt).toEqual(expect.any(String));
    await revoke({ companyId, prefix: made.prefix }, people.ownerKeyUser);
    expect((await keysOf()).find((k) => k.prefix === made.prefix)!.requestsToday).toBeNull();
  });

  it("requests today of a sharded key: the quota's counter summed over every shard", async () => {
    const seeded = await seedKey({
      api: "findings",
      companyId,
      projectId,
      rateLimits: { perMinute: 600 },
    });
    for (let i = 0; i < 6; i++) expect(await status(seeded.key)).toBe(200);
    // Ten shards of 60 a minute, each request on one chosen at random: the key's own counter
    // (shard 0) holds all six once in a million runs, so reading it alone would fall short.
    const own = Number((await firestore().doc(`apiKeyUsage/${seeded.hash}`).get()).get("dayCount"));
    expect(own || 0).toBeLessThan(6);
    const listed = (await keysOf()).find((k) => k.prefix === seeded.prefix)!;
    expect(listed).toMatchObject({ requestsToday: 6, rateLimits: { perMinute: 600 } });
  });

  it("names each key's creator by an address they cannot edit, never by displayName", async () => {
    const made = await newKey("named");
    await firestore()
      .doc(`users/${people.ownerKeyUser.uid}`)
      .update({ displayName: "Someone Else" });
    const verifiedAdmin = await signedIn({ admin: true }, undefined, {
      email: "ops@platform.example",
      emailVerified: true,
    });
    const unverified = await signedIn({ admin: true }, undefined, { email: "x@evil.example" });
    const byAdmin = (await create(
      { companyId, api: "findings", name: "admin's", projectId },
      verifiedAdmin,
    )) as Key;
    const byUnverified = (await create(
      { companyId, api: "findings", name: "unverified", projectId },
      unverified,
    )) as Key;
    const names = new Map((await keysOf()).map((k) => [k.prefix, k.createdByName]));
    expect(names.get(made.prefix)).toBe(`${people.ownerKeyUser.uid}@private-canary.example`);
    expect(names.get(byAdmin.prefix)).toBe("ops@platform.example");
    expect(names.get(byUnverified.prefix)).toBe(unverified.uid);
    const { entries } = (await trail({ companyId, class: "privileged" }, people.admin)) as {
      entries: Array<Record<string, unknown>>;
    };
    const who = (prefix: string) =>
      entries.find((e) => e.action === "api_key.created" && e.target === prefix)?.who;
    expect(who(made.prefix)).toBe(`${people.ownerKeyUser.uid}@private-canary.example`);
    expect(who(byAdmin.prefix)).toBe("ops@platform.example (platform Admin)");
    expect(who(byUnverified.prefix)).toBe(`Platform Admin ${unverified.uid}`);
  });

  it("apiKeyUsage: requests per UTC day, the last 30 days, today last", async () => {
    const made = await newKey("charted");
    await status(made.key);
    const threeDaysAgo = Timestamp.fromMillis(Date.now() - 3 * DAY_MS);
    const entry = auditEntry(
      {
        class: "operational",
        action: "api.request",
        actor: { type: "api_key", id: made.prefix, name: "charted" },
        api: "findings",
        method: "GET",
        path: "/v1/findings",
        status: 200,
        requestId: null,
        projectId,
      },
      threeDaysAgo,
    );
    await firestore().collection(`companies/${companyId}/auditLogs`).add(entry);
    const { days } = (await usage({ companyId, prefix: made.prefix }, people.ownerKeyUser)) as {
      days: Array<{ date: string; requests: number }>;
    };
    expect(days).toHaveLength(30);
    expect(days[29]).toEqual({ date: new Date().toISOString().slice(0, 10), requests: 1 });
    expect(days[26]).toEqual({
      date: threeDaysAgo.toDate().toISOString().slice(0, 10),
      requests: 1,
    });
    expect(days.reduce((sum, d) => sum + d.requests, 0)).toBe(2);
  });

  it("apiKeyUsage: key managers only, keys of the company only", async () => {
    const made = await newKey("private");
    await rejectsWith(
      usage({ companyId, prefix: made.prefix }, people.standard),
      "permission-denied",
    );
    await rejectsWith(
      usage({ companyId, prefix: "vfe_00000000" }, people.ownerKeyUser),
      "not-found",
    );
  });
});
