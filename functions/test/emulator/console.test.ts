import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { FORBIDDEN_MS } from "../../src/http/refusalMemory";
import { createApiKey, listApiKeys, revokeApiKey, setApiAccess } from "../../src/index";
import { hashKey, parseKey } from "../../src/lib/apiKeyFormat";
import { consolePeople, signedIn, type SignedIn } from "../support/authUsers";
import { randomId, seedCompany, seedKey, seedProject } from "../support/builders";
import { callables, rejectsWith } from "../support/callables";
import { client } from "../support/http";

const { callable, cleanup } = callables();
afterAll(cleanup);
const findings = client(createFindingsApp());

const create = callable(createApiKey);
const list = callable(listApiKeys);
const revoke = callable(revokeApiKey);
const access = callable(setApiAccess);

const rejects = rejectsWith;

let companyA: string;
let companyB: string;
let projectA: string;
let projectB: string;
const people: Record<string, SignedIn> = {};

beforeAll(async () => {
  companyA = await seedCompany();
  companyB = await seedCompany();
  projectA = await seedProject(companyA);
  projectB = await seedProject(companyB);
  Object.assign(people, await consolePeople(companyA, companyB, "otherOwnerKeyUser"));
  people.adminClaimFalse = await signedIn({ admin: "true" });
});

const findingsKeyInput = (name = "ERP export") => ({
  companyId: companyA,
  api: "findings",
  name,
  projectId: projectA,
});

describe("who may do what (one allowed and one denied case per role and action)", () => {
  it("setApiAccess: an Admin may; an owner with Key User may not", async () => {
    await expect(
      access({ companyId: companyA, api: "company", enabled: true }, people.admin),
    ).resolves.toEqual({ companyId: companyA, api: "company", enabled: true });
    await rejects(
      access({ companyId: companyA, api: "company", enabled: false }, people.ownerKeyUser),
      "permission-denied",
    );
    await rejects(
      access({ companyId: companyA, api: "company", enabled: false }, people.adminClaimFalse),
      "permission-denied",
    );
  });

  it("createApiKey: the owner with Key User and an Admin may; owner without Key User, manager with Key User, standard may not", async () => {
    await expect(create(findingsKeyInput(), people.ownerKeyUser)).resolves.toMatchObject({
      api: "findings",
    });
    await expect(create(findingsKeyInput(), people.admin)).resolves.toMatchObject({
      api: "findings",
    });
    for (const who of ["ownerOnly", "managerKeyUser", "standard"])
      await rejects(create(findingsKeyInput(), people[who]), "permission-denied");
  });

  it("listApiKeys and revokeApiKey: the owner with Key User and an Admin may; a standard user may not", async () => {
    const made = await create(findingsKeyInput("to revoke"), people.ownerKeyUser);
    await expect(list({ companyId: companyA }, people.admin)).resolves.toHaveProperty("keys");
    await expect(list({ companyId: companyA }, people.ownerKeyUser)).resolves.toHaveProperty(
      "keys",
    );
    await rejects(list({ companyId: companyA }, people.standard), "permission-denied");
    await rejects(
      revoke({ companyId: companyA, prefix: made.prefix }, people.standard),
      "permission-denied",
    );
    await expect(
      revoke({ companyId: companyA, prefix: made.prefix }, people.admin),
    ).resolves.toMatchObject({ alreadyRevoked: false });
  });

  it("a caller of another company is denied without learning whether the key exists", async () => {
    const made = await create(findingsKeyInput(), people.ownerKeyUser);
    // Both calls settle together: neither rejection is ever left without a handler.
    const [existing, missing] = await Promise.allSettled([
      revoke({ companyId: companyA, prefix: made.prefix }, people.otherOwnerKeyUser),
      revoke({ companyId: companyA, prefix: "vfe_00000000" }, people.otherOwnerKeyUser),
    ]);
    expect(existing).toMatchObject({ status: "rejected", reason: { code: "permission-denied" } });
    expect(missing).toMatchObject({ status: "rejected", reason: { code: "permission-denied" } });
    expect((existing as PromiseRejectedResult).reason.message).toBe(
      (missing as PromiseRejectedResult).reason.message,
    );
    await rejects(list({ companyId: companyA }, people.otherOwnerKeyUser), "permission-denied");
    await rejects(
      create({ ...findingsKeyInput(), projectId: projectB }, people.ownerKeyUser),
      "invalid-argument",
    );
    // Revoking by prefix only ever looks inside the caller's own company.
    await rejects(
      revoke({ companyId: companyB, prefix: made.prefix }, people.otherOwnerKeyUser),
      "not-found",
    );
  });

  it("an unauthenticated call → unauthenticated", async () => {
    await rejects(list({ companyId: companyA }, null), "unauthenticated");
  });
});

describe("invalid input → invalid-argument with a clear message", () => {
  it.each([
    [{ companyId: "x", api: "findings", name: "", projectId: "p" }, /name must be 1 to 100/],
    [
      { companyId: "x", api: "findings", name: "n".repeat(101), projectId: "p" },
      /name must be 1 to 100/,
    ],
    [{ companyId: "x", api: "vessel", name: "n" }, /api must be/],
    [{ companyId: "x", api: "findings", name: "n" }, /need a projectId/],
    [
      {
        companyId: "x",
        api: "findings",
        name: "n",
        projectId: "p",
        scopes: ["read", "provisioning"],
      },
      /exactly the scope/,
    ],
    [{ companyId: "x", api: "company", name: "n", scopes: ["provisioning"] }, /\["read"\] or/],
    [{ companyId: "x", api: "company", name: "n", projectId: "p" }, /not bound to a project/],
    [{ companyId: "x", api: "company", name: "n", extra: 1 }, /unknown field/],
    [{ api: "company", name: "n" }, /companyId/],
  ])("createApiKey(%j)", async (data, message) => {
    const p = create(
      {
        ...data,
        companyId: (data as { companyId?: string }).companyId === undefined ? undefined : companyA,
      },
      people.admin,
    );
    await rejects(p, "invalid-argument");
    await expect(p).rejects.toThrow(message);
  });

  it("a project that is not the company's, or deleted → invalid-argument", async () => {
    await rejects(
      create({ ...findingsKeyInput(), projectId: "no-such-project" }, people.admin),
      "invalid-argument",
    );
    const deleted = await seedProject(companyA, { deleted: true });
    await rejects(
      create({ ...findingsKeyInput(), projectId: deleted }, people.admin),
      "invalid-argument",
    );
  });

  it("setApiAccess and revokeApiKey validate too", async () => {
    await rejects(
      access({ companyId: companyA, api: "findings", enabled: "yes" }, people.admin),
      "invalid-argument",
    );
    await rejects(
      revoke({ companyId: companyA, prefix: "vfe_short" }, people.admin),
      "invalid-argument",
    );
    await rejects(
      access({ companyId: randomId("nope"), api: "findings", enabled: true }, people.admin),
      "not-found",
    );
    await rejects(list({ companyId: randomId("nope") }, people.admin), "not-found");
  });
});

describe("keys", () => {
  it("are returned once, stored only as a SHA-256 hash, and work at once; revoked → 401 on the next request", async () => {
    const made = await create(
      { companyId: companyA, api: "findings", name: "  Nightly ERP  ", projectId: projectA },
      people.ownerKeyUser,
    );
    const key = made.key as string;
    expect(parseKey(key)).toBe("findings");
    expect(made).toMatchObject({
      name: "Nightly ERP",
      prefix: key.slice(0, 12),
      projectId: projectA,
      scopes: ["read"],
      createdBy: people.ownerKeyUser.uid,
      revokedAt: null,
    });
    const stored = await firestore()
      .doc(`apiKeys/${hashKey(key)}`)
      .get();
    expect(stored.exists).toBe(true);
    expect(JSON.stringify(stored.data())).not.toContain(key);

    expect((await findings.get("/v1/project", key)).status).toBe(200);
    await revoke({ companyId: companyA, prefix: made.prefix }, people.ownerKeyUser);
    expect((await findings.get("/v1/project", key)).status).toBe(401);
    await expect(
      revoke({ companyId: companyA, prefix: made.prefix }, people.ownerKeyUser),
    ).resolves.toMatchObject({ alreadyRevoked: true });
  });

  it("company keys get read, or read+provisioning", async () => {
    await expect(
      create({ companyId: companyA, api: "company", name: "BI" }, people.admin),
    ).resolves.toMatchObject({ scopes: ["read"], projectId: null });
    const made = await create(
      { companyId: companyA, api: "company", name: "HR", scopes: ["provisioning", "read"] },
      people.admin,
    );
    expect(made.scopes).toEqual(["read", "provisioning"]);
    expect(made.key as string).toMatch(/^csa_/);
  });

  it("are listed without hash or key, with last use and effective limits", async () => {
    const made = await create(findingsKeyInput("listed"), people.ownerKeyUser);
    await findings.get("/v1/project", made.key as string);
    const { keys } = (await list(
      { companyId: companyA, api: "findings" },
      people.ownerKeyUser,
    )) as { keys: Array<Record<string, unknown>> };
    const entry = keys.find((k) => k.prefix === made.prefix)!;
    expect(Object.keys(entry).sort()).toEqual([
      "api",
      "createdAt",
      "createdBy",
      "createdByName",
      "expiresAt",
      "lastUsedAt",
      "name",
      "prefix",
      "projectId",
      "rateLimits",
      "requestsToday",
      "revokedAt",
      "revokedBy",
      "scopes",
    ]);
    expect(entry.lastUsedAt).toEqual(expect.any(String));
    // The effective limits and where each comes from (companyA has no arrangement).
    expect(entry.rateLimits).toEqual({
      perMinute: 60,
      perDay: 10_000,
      source: { perMinute: "default", perDay: "default" },
    });
    expect(JSON.stringify(keys)).not.toContain(made.key as string);
    expect(JSON.stringify(keys)).not.toContain(hashKey(made.key as string));
    expect(keys.every((k) => k.api === "findings")).toBe(true);
  });

  it("at most 20 active per company and API: with 18 active, 10 concurrent creations → exactly 2 succeed", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    await Promise.all(
      Array.from({ length: 18 }, () => seedKey({ api: "findings", companyId, projectId })),
    );
    await seedKey({ api: "findings", companyId, projectId, revoked: true });
    await seedKey({ api: "company", companyId });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        create({ companyId, api: "findings", name: `k${i}`, projectId }, people.admin),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(8);
    for (const r of rejected) expect(r.reason).toMatchObject({ code: "resource-exhausted" });
    const active = await firestore()
      .collection("apiKeys")
      .where("companyId", "==", companyId)
      .where("api", "==", "findings")
      .where("revokedAt", "==", null)
      .count()
      .get();
    expect(active.data().count).toBe(20);
    // The other API has its own 20.
    await expect(
      create({ companyId, api: "company", name: "other api" }, people.admin),
    ).resolves.toMatchObject({ api: "company" });
  });
});

describe("audit and access switches", () => {
  it("creation, revocation and access changes write privileged entries naming the user", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const made = await create(
      { companyId, api: "findings", name: "audited", projectId },
      people.admin,
    );
    await revoke({ companyId, prefix: made.prefix }, people.admin);
    await access({ companyId, api: "findings", enabled: false }, people.admin);
    const snap = await firestore().collection(`companies/${companyId}/auditLogs`).get();
    const entries = snap.docs
      .map((d) => d.data())
      .sort((a, b) => a.at.toMillis() - b.at.toMillis());
    expect(entries.map((e) => e.action)).toEqual([
      "api_key.created",
      "api_key.revoked",
      "api_access.changed",
    ]);
    expect(entries.map((e) => e.target)).toEqual([
      { type: "api_key", id: made.prefix },
      { type: "api_key", id: made.prefix },
      { type: "company", id: companyId },
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        class: "privileged",
        actor: { type: "user", id: people.admin.uid },
        api: "findings",
      });
      expect((e.expireAt.toMillis() - e.at.toMillis()) / 86_400_000).toBe(730);
    }
  });

  it("turning the findings export off answers 403 on the very next request; on again, 200 once the instance's remembered refusal lapses", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const { key } = await seedKey({ api: "findings", companyId, projectId });
    await access({ companyId, api: "findings", enabled: false }, people.admin);
    expect((await findings.get("/v1/project", key)).status).toBe(403);
    await access({ companyId, api: "findings", enabled: true }, people.admin);
    const switchedOn = Date.now();
    let status = 403;
    while (status === 403 && Date.now() - switchedOn < FORBIDDEN_MS + 2_000) {
      status = (await findings.get("/v1/project", key)).status;
      if (status === 403) await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe(200);
  });
});
