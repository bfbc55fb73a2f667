import { FieldValue } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { rosterWindow } from "../../src/repos/users";
import { run } from "../../src/tools/operator";
import { randomId, seedCompany, seedKey, seedUser } from "../support/builders";
import { client } from "../support/http";

/** The operator command, in-process against the test emulator (FIRESTORE_EMULATOR_HOST). */
const company = client(createCompanyApp());
const quiet = () => undefined;

/** The newest privileged entry of the company (requests write operational ones too). */
async function lastChange(companyId: string) {
  const snap = await firestore()
    .collection(`companies/${companyId}/auditLogs`)
    .where("class", "==", "privileged")
    .get();
  return snap.docs.map((d) => d.data()).sort((a, b) => b.at.toMillis() - a.at.toMillis())[0];
}

describe("npm run keys -- limits", () => {
  it("raises a company's limits for every key, audited as a privileged change", async () => {
    const companyId = await seedCompany();
    const csa = await seedKey({ api: "company", companyId });
    expect(
      await run(
        ["limits", "--company", companyId, "--per-minute", "600", "--per-day", "100000"],
        quiet,
      ),
    ).toEqual({
      companyId,
      prefix: null,
      rateLimits: { perMinute: 600, perDay: 100000 },
    });
    const res = await company.get("/v1/nothing-here", csa.key);
    expect(res.headers["ratelimit-policy"]).toBe('"minute";q=600;w=60, "day";q=100000;w=86400');
    expect(await lastChange(companyId)).toMatchObject({
      class: "privileged",
      action: "rate_limits.changed",
      target: { type: "company", id: companyId },
      actor: { type: "system" },
    });
  });

  it("sets one key's limit by prefix, and --clear removes it again", async () => {
    const companyId = await seedCompany();
    const csa = await seedKey({ api: "company", companyId });
    await run(
      ["limits", "--company", companyId, "--prefix", csa.prefix, "--per-minute", "1500"],
      quiet,
    );
    expect((await firestore().doc(`apiKeys/${csa.hash}`).get()).get("rateLimits")).toEqual({
      perMinute: 1500,
    });
    expect((await company.get("/v1/nothing-here", csa.key)).headers["ratelimit-policy"]).toContain(
      '"minute";q=1500',
    );
    expect(await lastChange(companyId)).toMatchObject({
      action: "rate_limits.changed",
      target: { type: "api_key", id: csa.prefix },
      api: "company",
    });
    await run(["limits", "--company", companyId, "--prefix", csa.prefix, "--clear"], quiet);
    expect((await firestore().doc(`apiKeys/${csa.hash}`).get()).get("rateLimits")).toBeUndefined();
  });

  it("changes only the fields given; an ambiguous prefix is refused", async () => {
    const companyId = await seedCompany({ rateLimits: { perMinute: 100, perDay: 5000 } });
    await run(["limits", "--company", companyId, "--per-minute", "300"], quiet);
    expect((await firestore().doc(`companies/${companyId}`).get()).get("rateLimits")).toEqual({
      perMinute: 300,
      perDay: 5000,
    });
    const random = "Ambiguous0000000000000000000000A";
    await seedKey({ api: "company", companyId, random });
    const twin = await seedKey({
      api: "company",
      companyId,
      random: `${random.slice(0, 8)}${"B".repeat(24)}`,
    });
    await expect(
      run(["limits", "--company", companyId, "--prefix", twin.prefix, "--per-minute", "5"], quiet),
    ).rejects.toThrow("matches 2 keys");
  });

  it.each([
    [["limits", "--company", "c1"], "give --per-minute and/or --per-day, or --clear"],
    [["limits", "--company", "c1", "--per-minute", "0"], "--per-minute must be a whole number"],
    [
      ["limits", "--company", "c1", "--per-day", "5", "--clear"],
      "give --per-minute and/or --per-day, or --clear",
    ],
    [["list", "--company", "c1", "--bogus"], "Unknown option '--bogus'"],
    [["lst"], 'unknown command "lst"'],
  ])("refuses %j with a usage error", async (argv, message) => {
    await expect(run(argv, quiet)).rejects.toThrow(message);
  });

  it("--help answers the usage text", async () => {
    expect(await run(["--help"], quiet)).toMatch(
      /^usage: npm --prefix functions run --silent keys -- <command>/,
    );
  });

  it("an unknown company or prefix is not-found, and nothing is written", async () => {
    await expect(run(["list", "--company", "no-such-company"], quiet)).rejects.toThrow(
      "No such company.",
    );
    const companyId = await seedCompany();
    await expect(
      run(
        ["limits", "--company", companyId, "--prefix", "csa_00000000", "--per-minute", "5"],
        quiet,
      ),
    ).rejects.toThrow("No key with this prefix");
    expect(await lastChange(companyId)).toBeUndefined();
  });
});

describe("npm run keys -- provisioning", () => {
  it("sets the company's e-mail domains and attribute sources, audited; --any-domain opts into any domain; --clear removes the list (provisioning off)", async () => {
    const companyId = await seedCompany();
    expect(
      await run(
        [
          "provisioning",
          "--company",
          companyId,
          "--domains",
          "Contoso.example, fabrikam.example",
          "--roles-source",
          "identityProvider",
        ],
        quiet,
      ),
    ).toMatchObject({ companyId });
    expect((await firestore().doc(`companies/${companyId}`).get()).data()).toMatchObject({
      provisioningDomains: ["contoso.example", "fabrikam.example"],
      provisioningRolesSource: "identityProvider",
    });
    expect(await lastChange(companyId)).toMatchObject({
      class: "privileged",
      action: "provisioning_settings.changed",
      target: { type: "company", id: companyId },
      actor: { type: "system" },
    });
    await run(["provisioning", "--company", companyId, "--any-domain"], quiet);
    expect(
      (await firestore().doc(`companies/${companyId}`).get()).get("provisioningDomains"),
    ).toEqual(["*"]);
    await run(
      ["provisioning", "--company", companyId, "--clear", "--department-source", "app"],
      quiet,
    );
    const after = (await firestore().doc(`companies/${companyId}`).get()).data();
    expect(after?.provisioningDomains).toBeUndefined();
    expect(after?.provisioningDepartmentSource).toBe("app");
  });

  it.each([
    [["provisioning", "--company", "c1"], "at least one setting"],
    [["provisioning", "--company", "c1", "--domains", "not a domain"], "is not a domain name"],
    [["provisioning", "--company", "c1", "--roles-source", "okta"], '"app" or "identityProvider"'],
  ])("refuses %j", async (argv, message) => {
    await expect(run(argv, quiet)).rejects.toThrow(message);
  });
});

describe("npm run keys -- repair-removed", () => {
  it("moves aside the createdAt of users removed by older versions; SCIM paging reads never write; safe to repeat", async () => {
    const companyId = await seedCompany();
    const createdAt = new Date(Date.now() - 86_400_000);
    await seedUser(randomId("u"), { companyId, status: "active", createdAt });
    const legacy = randomId("u");
    await seedUser(legacy, { companyId, status: "deactivated", removedAt: new Date(), createdAt });
    // Removed by a version that moved createdAt aside but left the address and userName key.
    const keyed = randomId("u");
    await seedUser(keyed, {
      companyId,
      status: "deactivated",
      removedAt: new Date(),
      email: "keyed@legacy.example",
      userNameKey: "keyed@legacy.example",
    });
    await firestore()
      .doc(`users/${keyed}`)
      .update({ createdAt: FieldValue.delete(), removedCreatedAt: createdAt });
    // A read leaves the legacy user as it is: it still sits in the ordered roster (counted, never
    // returned).
    expect(await rosterWindow(companyId, 0, 10)).toMatchObject({
      total: 2,
      users: [{ status: "active" }],
    });
    expect((await firestore().doc(`users/${legacy}`).get()).get("createdAt")).toBeDefined();
    expect(await run(["repair-removed", "--company", companyId], quiet)).toEqual({
      companyId,
      moved: 2,
    });
    const repaired = (await firestore().doc(`users/${legacy}`).get()).data();
    expect(repaired?.createdAt).toBeUndefined();
    expect(repaired?.removedCreatedAt?.toMillis()).toBe(createdAt.getTime());
    expect(repaired?.email).toBeUndefined();
    expect(repaired?.removedEmail).toBe(`${legacy}@private-canary.example`);
    const keyedNow = (await firestore().doc(`users/${keyed}`).get()).data();
    expect(keyedNow).toMatchObject({
      removedEmail: "keyed@legacy.example",
      removedUserNameKey: "keyed@legacy.example",
    });
    expect(keyedNow?.email).toBeUndefined();
    expect(keyedNow?.userNameKey).toBeUndefined();
    expect(keyedNow?.removedCreatedAt?.toMillis()).toBe(createdAt.getTime());
    expect(await rosterWindow(companyId, 0, 10)).toMatchObject({
      total: 1,
      users: [{ status: "active" }],
    });
    expect(await run(["repair-removed", "--company", companyId], quiet)).toEqual({
      companyId,
      moved: 0,
    });
  });
});
