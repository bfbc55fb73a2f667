import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { randomId, seedCompany, seedKey } from "../support/builders";
import { incidentData } from "../support/delta";
import { at, CANARY } from "../support/findingBuilders";
import { allPages, auditEntriesFor, client } from "../support/http";

const company = client(createCompanyApp());
let companyId: string;
let key: string;

async function seedIncident(companyOf: string, id: string, fields: Record<string, unknown> = {}) {
  await firestore().doc(`companies/${companyOf}/incidents/${id}`).set(incidentData(fields));
}

async function all(query: string, limit: number, withKey = key) {
  const pages = await allPages(
    (path) => company.get(path, withKey),
    `/v1/incidents?limit=${limit}${query}`,
  );
  return {
    ids: pages.flatMap((p) => p.data.map((i: { id: string }) => i.id)),
    pages: pages.length,
  };
}

beforeAll(async () => {
  companyId = await seedCompany();
  key = (await seedKey({ api: "company", companyId, rateLimits: { perMinute: 10_000 } })).key;
  await Promise.all([
    seedIncident(companyId, "i-b", { eventDate: at("2026-01-10T00:00:00Z"), status: "closed" }),
    seedIncident(companyId, "i-a", { eventDate: at("2026-01-10T00:00:00Z"), status: "reported" }),
    seedIncident(companyId, "i-c", {
      eventDate: at("2026-02-01T00:00:00Z"),
      status: "closed",
      hidden: true,
    }),
    seedIncident(companyId, "i-d", {
      eventDate: at("2026-02-01T00:00:00Z"),
      status: "under_investigation",
    }),
    seedIncident(companyId, "i-e", {
      eventDate: at("2026-03-01T00:00:00Z"),
      status: "closed",
      hidden: true,
    }),
    seedIncident(companyId, "i-f", {
      eventDate: at("2026-03-01T00:00:00Z"),
      status: "action_required",
    }),
    seedIncident(companyId, "i-g", {
      eventDate: at("2026-04-01T00:00:00Z"),
      status: "unknown-status",
      type: "spill",
      personType: "contractor",
    }),
    seedIncident(companyId, "i-h", { eventDate: null, status: "closed" }),
  ]);
  const other = await seedCompany();
  await seedIncident(other, "i-other");
});

describe("GET /v1/incidents", () => {
  it("lists visible incidents by event date, then id; those without an event date first", async () => {
    const res = await company.get("/v1/incidents", key);
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: { id: string }) => i.id)).toEqual([
      "i-h",
      "i-a",
      "i-b",
      "i-d",
      "i-f",
      "i-g",
    ]);
    expect(res.body.next_page_token).toBeNull();
  });

  it("exports every field in snake_case and never the reporter's e-mail", async () => {
    const res = await company.get("/v1/incidents?from=2026-01-10&to=2026-01-11", key);
    expect(res.body.data[0]).toEqual({
      id: "i-a",
      reference: "INC-2026-0001",
      title: "Slip on deck",
      description: "Wet deck near the gangway.",
      event_date: "2026-01-10T00:00:00.000Z",
      reported_at: "2026-03-01T11:00:00.000Z",
      date_of_death: null,
      status: "reported",
      type: "injury",
      work_related: true,
      recordable: true,
      fatality: false,
      person_type: "employee",
      days_lost: 3,
      location_id: "loc1",
      department_id: "dep-hse",
      reported_by: "u1",
      reported_by_name: "Reporter",
    });
    expect(JSON.stringify((await company.get("/v1/incidents", key)).body)).not.toContain(CANARY);
  });

  it("values outside the contract's lists are exported as null", async () => {
    const res = await company.get("/v1/incidents?from=2026-04-01", key);
    expect(res.body.data).toEqual([
      expect.objectContaining({ id: "i-g", status: null, type: null, person_type: null }),
    ]);
  });

  it("from is inclusive and to exclusive on the event date", async () => {
    expect((await all("&from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z", 100)).ids).toEqual([
      "i-d",
    ]);
    expect((await all("&to=2026-01-10", 100)).ids).toEqual(["i-h"]);
  });

  it("filters on one status", async () => {
    expect((await all("&status=closed", 100)).ids).toEqual(["i-h", "i-b"]);
    expect((await all("&status=closed&from=2026-01-01", 100)).ids).toEqual(["i-b"]);
  });

  it("pages past pages that hidden incidents shorten, never repeating or skipping", async () => {
    for (const limit of [1, 2, 3]) {
      const { ids } = await all("", limit);
      expect(ids).toEqual(["i-h", "i-a", "i-b", "i-d", "i-f", "i-g"]);
    }
    const { pages } = await all("&status=closed", 1);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it.each([
    [
      "status=open",
      'Invalid query parameter "status": must be one of reported, under_investigation, action_required, closed.',
    ],
    ["limit=0", 'Invalid query parameter "limit"'],
    ["limit=501", 'Invalid query parameter "limit"'],
    ["from=2026-13-01", 'Invalid query parameter "from"'],
    ["from=2026-03-01&to=2026-02-01", 'Invalid query parameter "to": must be after from.'],
    ["to=2026-03-01T00:00:00%2B01:00", 'Invalid query parameter "to"'],
    ["page_token=nonsense", 'Invalid query parameter "page_token"'],
    ["reported_by=u1", 'Unknown query parameter "reported_by".'],
  ])("%s → 400 naming the parameter", async (q, message) => {
    const res = await company.get(`/v1/incidents?${q}`, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain(message);
  });

  it("a page token is bound to the company and to every filter", async () => {
    const first = await company.get("/v1/incidents?limit=1&status=closed", key);
    const token = encodeURIComponent(first.body.next_page_token);
    expect(
      (await company.get(`/v1/incidents?limit=1&status=reported&page_token=${token}`, key)).status,
    ).toBe(400);
    expect((await company.get(`/v1/incidents?limit=1&page_token=${token}`, key)).status).toBe(400);
    const otherCompany = await seedCompany();
    const otherKey = (await seedKey({ api: "company", companyId: otherCompany })).key;
    const replay = await company.get(
      `/v1/incidents?limit=1&status=closed&page_token=${token}`,
      otherKey,
    );
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toMatch(/another query/);
  });

  it("is audited as an operational request of the company", async () => {
    const rid = randomId("rq");
    await company.get("/v1/incidents?limit=1", key, { "X-Request-Id": rid });
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({
        class: "operational",
        method: "GET",
        path: "/v1/incidents",
        status: 200,
        api: "company",
      }),
    ]);
  });

  it("needs a company key: none → 401, a findings key → 401", async () => {
    expect((await company.get("/v1/incidents")).status).toBe(401);
    const vfe = await seedKey({ api: "findings", companyId, projectId: "p" });
    expect((await company.get("/v1/incidents", vfe.key)).status).toBe(401);
  });
});
