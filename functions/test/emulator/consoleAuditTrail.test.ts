import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { createApiKey, listAuditTrail, setApiAccess } from "../../src/index";
import { consolePeople, type SignedIn } from "../support/authUsers";
import { seedCompany, seedProject } from "../support/builders";
import { callables, rejectsWith } from "../support/callables";
import { client } from "../support/http";

/** The console's audit trail (listAuditTrail): in words, by class, paged, for its readers only. */
const { callable, cleanup } = callables();
afterAll(cleanup);
const findings = client(createFindingsApp());

const create = callable(createApiKey);
const trail = callable(listAuditTrail);
const access = callable(setApiAccess);

type Key = Record<string, unknown> & { key: string; prefix: string };
const people: Record<string, SignedIn> = {};
let companyId: string;

beforeAll(async () => {
  companyId = await seedCompany();
  const otherCompany = await seedCompany();
  Object.assign(people, await consolePeople(companyId, otherCompany));
});

describe("listAuditTrail", () => {
  it("entries in words, newest first, by class, paged", async () => {
    const company = await seedCompany();
    const project = await seedProject(company);
    const first = (await create(
      { companyId: company, api: "findings", name: "one", projectId: project },
      people.admin,
    )) as Key;
    await create(
      { companyId: company, api: "findings", name: "two", projectId: project },
      people.admin,
    );
    await findings.get("/v1/project", first.key);
    const all = (await trail({ companyId: company }, people.admin)) as {
      entries: Array<Record<string, unknown>>;
    };
    expect(all.entries.map((e) => e.action)).toEqual([
      "api.request",
      "api_key.created",
      "api_key.created",
    ]);
    expect(all.entries[0]).toMatchObject({
      class: "operational",
      who: `API key ${first.prefix} (one)`,
      what: "GET /v1/project",
      result: "succeeded (200)",
    });
    const operational = (await trail(
      { companyId: company, class: "operational" },
      people.admin,
    )) as {
      entries: unknown[];
    };
    expect(operational.entries).toHaveLength(1);
    const page1 = (await trail({ companyId: company, limit: 2 }, people.admin)) as {
      entries: Array<{ id: string }>;
      nextPageToken: string;
    };
    expect(page1.entries).toHaveLength(2);
    const page2 = (await trail(
      { companyId: company, limit: 2, pageToken: page1.nextPageToken },
      people.admin,
    )) as { entries: Array<{ id: string; what: string }>; nextPageToken: string | null };
    expect(page2.entries).toHaveLength(1);
    expect(page2.entries[0].what).toMatch(/^Created key vfe_/);
    expect(page2.nextPageToken).toBeNull();
    const forged = (id: string) =>
      Buffer.from(JSON.stringify([1800000000, 0, id])).toString("base64url");
    for (const pageToken of ["not-a-token", forged("a/b/c"), forged(""), forged("__x__")])
      await rejectsWith(trail({ companyId: company, pageToken }, people.admin), "invalid-argument");
  });

  it("an access switch records the API and its new state, shown in words", async () => {
    const company = await seedCompany();
    await access({ companyId: company, api: "findings", enabled: false }, people.admin);
    await access({ companyId: company, api: "company", enabled: true }, people.admin);
    const { entries } = (await trail({ companyId: company }, people.admin)) as {
      entries: Array<Record<string, unknown>>;
    };
    expect(entries.map(({ action, what, enabled }) => ({ action, what, enabled }))).toEqual([
      { action: "api_access.changed", what: "Switched the company API on", enabled: true },
      { action: "api_access.changed", what: "Switched the findings export off", enabled: false },
    ]);
    const stored = await firestore().collection(`companies/${company}/auditLogs`).get();
    expect(stored.docs.map((d) => [d.get("api"), d.get("enabled")]).sort()).toEqual([
      ["company", true],
      ["findings", false],
    ]);
  });

  it("the readers of firestore.rules: the owner and Key Users of the company, Admins", async () => {
    for (const who of ["ownerKeyUser", "ownerOnly", "managerKeyUser"])
      await expect(trail({ companyId }, people[who])).resolves.toHaveProperty("entries");
    for (const who of ["standard", "otherOwner"])
      await rejectsWith(trail({ companyId }, people[who]), "permission-denied");
  });
});
