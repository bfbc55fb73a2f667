import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { run } from "../../src/tools/operator";
import { seedCompany, seedKey } from "../support/builders";
import { client } from "../support/http";

/** Raised limits "by arrangement": per company and scope, set by the operator command. */
const company = client(createCompanyApp());
const quiet = () => undefined;
const DEFAULT_POLICY = '"minute";q=60;w=60, "day";q=10000;w=86400';
const policyOf = async (key: string) =>
  (await company.get("/v1/nothing-here", key)).headers["ratelimit-policy"];

describe("per-scope rate limits of a company", () => {
  it("apply to every provisioning key, a rotated one included, and not to read keys", async () => {
    const companyId = await seedCompany();
    const reader = await seedKey({ api: "company", companyId });
    expect(
      await run(
        [
          "limits",
          "--company",
          companyId,
          "--scope",
          "provisioning",
          "--per-minute",
          "3000",
          "--per-day",
          "200000",
        ],
        quiet,
      ),
    ).toEqual({
      companyId,
      prefix: null,
      scope: "provisioning",
      rateLimits: { perMinute: 3000, perDay: 200000 },
    });
    expect((await firestore().doc(`companies/${companyId}`).get()).get("rateLimits")).toEqual({
      provisioning: { perMinute: 3000, perDay: 200000 },
    });
    // Rotation: a new key made after the arrangement gets it; the old one is revoked.
    const created = (await run(
      [
        "create",
        "--company",
        companyId,
        "--api",
        "company",
        "--name",
        "Entra",
        "--scopes",
        "read,provisioning",
      ],
      quiet,
    )) as { key: string; prefix: string };
    expect(await policyOf(created.key)).toBe('"minute";q=3000;w=60, "day";q=200000;w=86400');
    expect(await policyOf(reader.key)).toBe(DEFAULT_POLICY);

    const listed = (await run(["list", "--company", companyId], quiet)) as Array<{
      prefix: string;
      rateLimits: unknown;
    }>;
    expect(listed.find((k) => k.prefix === created.prefix)?.rateLimits).toEqual({
      perMinute: 3000,
      perDay: 200000,
      source: { perMinute: "company.provisioning", perDay: "company.provisioning" },
    });
    expect(listed.find((k) => k.prefix === reader.prefix)?.rateLimits).toEqual({
      perMinute: 60,
      perDay: 10000,
      source: { perMinute: "default", perDay: "default" },
    });
  });

  it("wins over the company-wide value; a company-wide --clear keeps the scope's", async () => {
    const companyId = await seedCompany({ rateLimits: { perMinute: 100, perDay: 5000 } });
    const provisioner = await seedKey({ api: "company", companyId, scopes: ["provisioning"] });
    await run(
      ["limits", "--company", companyId, "--scope", "provisioning", "--per-minute", "1500"],
      quiet,
    );
    expect(await policyOf(provisioner.key)).toBe('"minute";q=1500;w=60, "day";q=5000;w=86400');
    await run(["limits", "--company", companyId, "--clear"], quiet);
    expect((await firestore().doc(`companies/${companyId}`).get()).get("rateLimits")).toEqual({
      provisioning: { perMinute: 1500 },
    });
    expect(await policyOf(provisioner.key)).toBe('"minute";q=1500;w=60, "day";q=10000;w=86400');
    await run(["limits", "--company", companyId, "--scope", "provisioning", "--clear"], quiet);
    expect(await policyOf(provisioner.key)).toBe(DEFAULT_POLICY);
  });

  it("a bad stored value never takes the endpoint down: that part falls back, and is replaced whole", async () => {
    const companyId = await seedCompany({
      rateLimits: { perMinute: "lots", perDay: 20000, provisioning: 7 },
    });
    const provisioner = await seedKey({ api: "company", companyId, scopes: ["provisioning"] });
    const res = await company.get("/v1/nothing-here", provisioner.key);
    expect(res.status).toBe(404);
    expect(res.headers["ratelimit-policy"]).toBe('"minute";q=60;w=60, "day";q=20000;w=86400');
    await run(
      ["limits", "--company", companyId, "--scope", "provisioning", "--per-minute", "900"],
      quiet,
    );
    expect(await policyOf(provisioner.key)).toBe('"minute";q=900;w=60, "day";q=20000;w=86400');
    await firestore().doc(`companies/${companyId}`).update({ rateLimits: "lots" });
    expect(await policyOf(provisioner.key)).toBe(DEFAULT_POLICY);
    await run(["limits", "--company", companyId, "--per-day", "30000"], quiet);
    expect((await firestore().doc(`companies/${companyId}`).get()).get("rateLimits")).toEqual({
      perDay: 30000,
    });
  });

  it.each([
    [
      ["limits", "--company", "c1", "--scope", "provisioning", "--prefix", "csa_AbC123xy"],
      "not both",
    ],
    [["limits", "--company", "c1", "--scope", "write", "--per-minute", "5"], "--scope is read or"],
  ])("refuses %j with a usage error", async (argv, message) => {
    await expect(run(argv, quiet)).rejects.toThrow(message);
  });
});
