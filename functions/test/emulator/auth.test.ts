import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { composeKey, generateKey } from "../../src/lib/apiKeyFormat";
import { randomId, seedCompany, seedKey, seedProject } from "../support/builders";
import { auditEntriesFor, client } from "../support/http";
import { logger } from "../support/logger";

const findings = client(createFindingsApp());
const company = client(createCompanyApp());

async function findingsSetup(companyOverrides = {}, projectOverrides = {}) {
  const companyId = await seedCompany(companyOverrides);
  const projectId = await seedProject(companyId, projectOverrides);
  const key = await seedKey({ api: "findings", companyId, projectId });
  return { companyId, projectId, key };
}

function expectError(
  res: { status: number; body: { error: { code: string; message: string; request_id: string } } },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.request_id).toBeTruthy();
}

describe("authentication: 401 without a database read", () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(logger, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it.each([
    ["no Authorization header", {}],
    ["a non-Bearer scheme", { Authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty bearer", { Authorization: "Bearer " }],
    ["a malformed key", { Authorization: "Bearer vfe_short" }],
    [
      "a key with a wrong checksum",
      { Authorization: `Bearer ${composeKey("findings", "A".repeat(32)).slice(0, -1)}x` },
    ],
    ["a company key on the findings API", { Authorization: `Bearer ${generateKey("company")}` }],
  ])("%s → 401 with WWW-Authenticate, logged without the key", async (_name, headers) => {
    const res = await findings.get("/v1/project", undefined, headers);
    expectError(res, 401, "unauthorized");
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(warn).toHaveBeenCalledTimes(1);
    const [event, fields] = warn.mock.calls[0];
    expect(event).toBe("api.unattributed_request");
    expect(fields).toMatchObject({ api: "findings", status: 401, path: "/v1/project" });
    const auth = (headers as Record<string, string>).Authorization;
    if (auth && auth.length > 12)
      expect(JSON.stringify(warn.mock.calls)).not.toContain(auth.slice(7));
  });

  it("a findings key on the company API → 401", async () => {
    const res = await company.get("/v1/kpis", generateKey("findings"));
    expectError(res, 401, "unauthorized");
    expect(res.body.error.message).toContain("csa_");
  });

  it("an unknown well-formed key → 401, logged, never audited", async () => {
    const res = await findings.get("/v1/project", generateKey("findings"));
    expectError(res, 401, "unauthorized");
    expect(warn).toHaveBeenCalledWith(
      "api.unattributed_request",
      expect.objectContaining({ status: 401 }),
    );
  });
});

describe("authentication: keys and access of a real company", () => {
  it("a revoked key → 401, audited in its company", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId, revoked: true });
    const res = await findings.get("/v1/project", key.key, {
      "X-Request-Id": "revoked-1-" + companyId,
    });
    expectError(res, 401, "unauthorized");
    const [entry] = await auditEntriesFor(companyId, "revoked-1-" + companyId);
    expect(entry).toMatchObject({ status: 401, actor: { type: "api_key", id: key.prefix } });
  });

  it("revocation takes effect on the very next request", async () => {
    const { key } = await findingsSetup();
    expect((await findings.get("/v1/project", key.key)).status).toBe(200);
    await firestore()
      .doc(`apiKeys/${key.hash}`)
      .update({ revokedAt: Timestamp.now(), revokedBy: "test" });
    expectError(await findings.get("/v1/project", key.key), 401, "unauthorized");
  });

  it("a key stored for the other API under this hash → 401", async () => {
    const companyId = await seedCompany();
    const key = await seedKey({ api: "findings", companyId, projectId: "p" });
    await firestore().doc(`apiKeys/${key.hash}`).update({ api: "company" });
    expectError(await findings.get("/v1/project", key.key), 401, "unauthorized");
  });

  it("findings export switched off → 403 on the next request, audited", async () => {
    const { companyId, key } = await findingsSetup();
    expect((await findings.get("/v1/project", key.key)).status).toBe(200);
    await firestore().doc(`companies/${companyId}`).update({ "apiAccess.findingsExport": false });
    const rid = randomId("rq");
    const res = await findings.get("/v1/project", key.key, { "X-Request-Id": rid });
    expectError(res, 403, "forbidden");
    expect(await auditEntriesFor(companyId, rid)).toHaveLength(1);
  });

  it.each([
    ["absent apiAccess", { apiAccess: null }],
    ["only the company API on", { apiAccess: { companyApi: true } }],
  ])("findings key with %s → 403", async (_n, overrides) => {
    const { key } = await findingsSetup(overrides);
    expectError(await findings.get("/v1/project", key.key), 403, "forbidden");
  });

  it("findings key whose company document is gone → 403", async () => {
    const { companyId, key } = await findingsSetup();
    await firestore().doc(`companies/${companyId}`).delete();
    expectError(await findings.get("/v1/project", key.key), 403, "forbidden");
  });

  it("findings key whose project was deleted → 403", async () => {
    const { key } = await findingsSetup({}, { deleted: true });
    expectError(await findings.get("/v1/project", key.key), 403, "forbidden");
  });

  it("findings key whose project no longer exists → 403", async () => {
    const { projectId, key } = await findingsSetup();
    await firestore().doc(`projects/${projectId}`).delete();
    expectError(await findings.get("/v1/project", key.key), 403, "forbidden");
  });

  it("findings key whose project moved to another company → 403", async () => {
    const { key } = await findingsSetup({}, { companyId: "some-other-company" });
    const res = await findings.get("/v1/project", key.key);
    expectError(res, 403, "forbidden");
    expect(res.body.error.message).toContain("another company");
  });

  it.each([
    ["a pro plan", { plan: "pro" }],
    ["a free plan", { plan: "free" }],
    ["the company API off", { apiAccess: { findingsExport: true, companyApi: false } }],
    ["absent apiAccess", { apiAccess: null }],
  ])("company key of a company with %s → 403", async (_n, overrides) => {
    const companyId = await seedCompany(overrides);
    const key = await seedKey({ api: "company", companyId });
    expectError(await company.get("/v1/nothing-here", key.key), 403, "forbidden");
  });

  it("company key of an enabled enterprise company is admitted (unknown path → 404)", async () => {
    const companyId = await seedCompany();
    const key = await seedKey({ api: "company", companyId });
    expectError(await company.get("/v1/nothing-here", key.key), 404, "not_found");
  });

  it("accepts the scheme in any case and surrounding spaces", async () => {
    const { key } = await findingsSetup();
    const res = await findings.get("/v1/project", undefined, {
      Authorization: `bearer   ${key.key} `,
    });
    expect(res.status).toBe(200);
  });
});
