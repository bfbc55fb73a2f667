import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { auditEntry, type AuditEntry } from "../../src/repos/auditLogs";
import { seedCompany, seedKey } from "../support/builders";
import { allPages, client } from "../support/http";

const company = client(createCompanyApp());
const DAY = 86_400_000;
let companyId: string;
let key: { key: string; hash: string; prefix: string };

const ago = (days: number, extraMs = 0) => Timestamp.fromMillis(Date.now() - days * DAY + extraMs);

async function seedEntry(
  id: string,
  cls: AuditEntry["class"],
  at: Timestamp,
  fields: Partial<AuditEntry> = {},
) {
  const entry = auditEntry(
    {
      class: cls,
      action: cls === "privileged" ? "api_key.created" : "api.request",
      actor: { type: "api_key", id: "csa_Seeded000", name: "Seeded" },
      api: "company",
      method: "GET",
      path: "/v1/incidents",
      status: 200,
      requestId: `rq-${id}`,
      projectId: null,
      ...fields,
    },
    at,
  );
  await firestore().doc(`companies/${companyId}/auditLogs/${id}`).set(entry);
}

async function all(query: string, limit: number) {
  const pages = await allPages(
    (path) => company.get(path, key.key),
    `/v1/audit-logs?limit=${limit}${query}`,
  );
  return pages
    .flatMap((p) => p.data.map((e: { id: string }) => e.id))
    .filter((id: string) => id.startsWith("e-"));
}

beforeAll(async () => {
  companyId = await seedCompany();
  key = await seedKey({ api: "company", companyId, rateLimits: { perMinute: 10_000 } });
  const tie = ago(2);
  await Promise.all([
    seedEntry("e-op-1d", "operational", ago(1)),
    seedEntry("e-op-2d-a", "operational", tie),
    seedEntry("e-op-2d-b", "operational", tie),
    seedEntry("e-pr-10d", "privileged", ago(10), {
      target: { type: "api_key", id: "csa_Target000" },
      method: null,
      path: null,
      status: null,
      requestId: null,
    }),
    seedEntry("e-op-89d", "operational", ago(89)),
    seedEntry("e-op-91d", "operational", ago(91)), // past the 90-day retention, not yet deleted
    seedEntry("e-pr-400d", "privileged", ago(400)),
    seedEntry("e-pr-729d", "privileged", ago(729)),
    seedEntry("e-pr-731d", "privileged", ago(731)), // past the 2-year retention
  ]);
  // A recent entry whose expireAt says it is gone: expireAt decides.
  await firestore()
    .doc(`companies/${companyId}/auditLogs/e-op-expired`)
    .set({
      ...auditEntry(
        {
          class: "operational",
          action: "api.request",
          actor: { type: "system", id: "x", name: "x" },
          api: null,
          method: null,
          path: null,
          status: null,
          requestId: null,
          projectId: null,
        },
        ago(3),
      ),
      expireAt: ago(0, -1000),
    });
});

describe("GET /v1/audit-logs", () => {
  it("lists retained entries newest first, ties by id, across both classes", async () => {
    expect(await all("", 100)).toEqual([
      "e-op-1d",
      "e-op-2d-b",
      "e-op-2d-a",
      "e-pr-10d",
      "e-op-89d",
      "e-pr-400d",
      "e-pr-729d",
    ]);
  });

  it("pages through both classes without repeating or skipping", async () => {
    for (const limit of [1, 2, 3])
      expect(await all("", limit)).toEqual([
        "e-op-1d",
        "e-op-2d-b",
        "e-op-2d-a",
        "e-pr-10d",
        "e-op-89d",
        "e-pr-400d",
        "e-pr-729d",
      ]);
  });

  it("filters by class, and by from (inclusive) and to (exclusive) on at", async () => {
    expect(await all("&class=privileged", 2)).toEqual(["e-pr-10d", "e-pr-400d", "e-pr-729d"]);
    expect(await all("&class=operational", 100)).toEqual([
      "e-op-1d",
      "e-op-2d-b",
      "e-op-2d-a",
      "e-op-89d",
    ]);
    const from = new Date(Date.now() - 10 * DAY - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    const to = new Date(Date.now() - DAY - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    expect(await all(`&from=${from}&to=${to}`, 100)).toEqual([
      "e-op-2d-b",
      "e-op-2d-a",
      "e-pr-10d",
    ]);
  });

  it("exports each entry in snake_case with its target; never a key's value or hash", async () => {
    const res = await company.get("/v1/audit-logs?class=privileged&limit=1", key.key);
    expect(res.body.data[0]).toEqual({
      id: "e-pr-10d",
      at: expect.any(String),
      class: "privileged",
      action: "api_key.created",
      actor: { type: "api_key", id: "csa_Seeded000", name: "Seeded" },
      api: "company",
      method: null,
      path: null,
      status: null,
      request_id: null,
      client_request_id: null,
      count: 1,
      project_id: null,
      target: { type: "api_key", id: "csa_Target000" },
    });
    await company.get("/v1/incidents", key.key);
    const page = await company.get("/v1/audit-logs?limit=20", key.key);
    const own = page.body.data.find(
      (e: { path: string; actor: { id: string } }) =>
        e.path === "/v1/incidents" && e.actor.id === key.prefix,
    );
    expect(own).toMatchObject({
      class: "operational",
      action: "api.request",
      status: 200,
      api: "company",
      target: null,
    });
    expect(JSON.stringify(page.body)).not.toContain(key.key);
    expect(JSON.stringify(page.body)).not.toContain(key.hash);
  });

  it.each([
    ["class=all", 'Invalid query parameter "class": must be privileged or operational.'],
    ["from=yesterday", 'Invalid query parameter "from"'],
    ["from=2026-03-01&to=2026-03-01", 'Invalid query parameter "to": must be after from.'],
    ["page_token=abc", 'Invalid query parameter "page_token"'],
    ["actor=x", 'Unknown query parameter "actor".'],
  ])("%s → 400", async (q, message) => {
    const res = await company.get(`/v1/audit-logs?${q}`, key.key);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it("a page token is bound to the company and the filters", async () => {
    const first = await company.get("/v1/audit-logs?limit=1&class=operational", key.key);
    const token = encodeURIComponent(first.body.next_page_token);
    expect(
      (await company.get(`/v1/audit-logs?limit=1&class=privileged&page_token=${token}`, key.key))
        .status,
    ).toBe(400);
    const other = await seedKey({ api: "company", companyId: await seedCompany() });
    expect(
      (await company.get(`/v1/audit-logs?limit=1&class=operational&page_token=${token}`, other.key))
        .status,
    ).toBe(400);
  });

  it("another company's entries are never listed", async () => {
    const otherCompany = await seedCompany();
    const other = await seedKey({ api: "company", companyId: otherCompany });
    const res = await company.get("/v1/audit-logs?limit=100", other.key);
    expect(res.body.data.filter((e: { id: string }) => e.id.startsWith("e-"))).toEqual([]);
  });
});
