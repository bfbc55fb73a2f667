import { createCompanyApp } from "../../src/company/app";
import { createFindingsApp } from "../../src/findings/app";
import * as findingsRepo from "../../src/repos/findings";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { auditCount, auditEntriesFor, client } from "../support/http";

const findings = client(createFindingsApp());
const original = findingsRepo.queryFindings;
const company = client(createCompanyApp());

describe("audit trail of keyed requests", () => {
  let companyId: string;
  let projectId: string;
  let key: Awaited<ReturnType<typeof seedKey>>;
  beforeAll(async () => {
    companyId = await seedCompany();
    projectId = await seedProject(companyId);
    key = await seedKey({ api: "findings", companyId, projectId, name: "ERP nightly export" });
  });

  it("a success writes one operational entry with the contract's fields, before the response", async () => {
    const rid = `ok-${companyId}`;
    const res = await findings.get("/v1/project?", key.key, { "X-Request-Id": rid });
    expect(res.status).toBe(200);
    // No waiting: the entry is committed before the response is sent.
    const entries = await auditEntriesFor(companyId, rid);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toEqual({
      at: expect.anything(),
      class: "operational",
      action: "api.request",
      actor: { type: "api_key", id: key.prefix, name: "ERP nightly export" },
      api: "findings",
      method: "GET",
      path: "/v1/project",
      status: 200,
      requestId: res.headers["x-request-id"],
      clientRequestId: rid,
      projectId,
      expireAt: expect.anything(),
    });
    expect(entry.actor.id).toHaveLength(12);
    const days = (entry.expireAt.toMillis() - entry.at.toMillis()) / 86_400_000;
    expect(days).toBe(90);
  });

  it("the entry is committed with the count, before the handler runs, and settled with the status after", async () => {
    const rid = `pending-${companyId}`;
    const seen: unknown[] = [];
    const whileRunning = async (...args: Parameters<typeof original>) => {
      // While the handler runs, the request is counted and its entry waits for its outcome.
      seen.push(...(await auditEntriesFor(companyId, rid)));
      return original(...args);
    };
    const query = jest.spyOn(findingsRepo, "queryFindings").mockImplementationOnce(whileRunning);
    const res = await findings.get("/v1/findings?limit=1", key.key, { "X-Request-Id": rid });
    query.mockRestore();
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      expect.objectContaining({
        action: "api.request",
        status: null,
        requestId: res.headers["x-request-id"],
      }),
    ]);
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({
        action: "api.request",
        status: 200,
        requestId: res.headers["x-request-id"],
      }),
    ]);
  });

  it("a failure (400) writes one entry with its status", async () => {
    const rid = `bad-${companyId}`;
    expect((await findings.get("/v1/project?x=1", key.key, { "X-Request-Id": rid })).status).toBe(
      400,
    );
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({ status: 400, path: "/v1/project" }),
    ]);
  });

  it("a read refused for its scope is a counted request: its entry settled with 403", async () => {
    const readKey = await seedKey({ api: "company", companyId, scopes: ["read"] });
    const rid = `scope-${companyId}`;
    const res = await company.get("/v1/users", readKey.key, { "X-Request-Id": rid });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("insufficient_scope");
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({ action: "api.request", status: 403, path: "/v1/users" }),
    ]);
  });

  it("public endpoints are not audited", async () => {
    const before = await auditCount(companyId);
    await findings.get("/v1", key.key);
    await findings.get("/v1/openapi.json", key.key);
    expect(await auditCount(companyId)).toBe(before);
  });

  it("the key is never stored in the entry", async () => {
    const rid = `nokey-${companyId}`;
    await findings.get("/v1/project", key.key, { "X-Request-Id": rid });
    const [entry] = await auditEntriesFor(companyId, rid);
    expect(JSON.stringify(entry)).not.toContain(key.key);
    expect(JSON.stringify(entry)).not.toContain(key.hash);
  });
});
