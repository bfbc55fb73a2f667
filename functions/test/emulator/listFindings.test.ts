import { Timestamp } from "firebase-admin/firestore";
import { createFindingsApp } from "../../src/findings/app";
import type { ListFindingsResponse } from "../../src/findings/listFindings";
import { seedVessel } from "../support/builders";
import { at, seedFinding } from "../support/findingBuilders";
import { allPages, client } from "../support/http";

const findings = client(createFindingsApp());

interface Vessel {
  companyId: string;
  projectId: string;
  key: string;
}

const vessel = seedVessel;

/** Follows next_page_token to the end; returns every page. */
function pages(v: Vessel, query: string): Promise<ListFindingsResponse[]> {
  return allPages((path) => findings.get(path, v.key), `/v1/findings?${query}`, 99);
}
const ids = (ps: ListFindingsResponse[]) => ps.flatMap((p) => p.data.map((f) => f.id));

describe("GET /v1/findings, default mode", () => {
  let v: Vessel;
  beforeAll(async () => {
    v = await vessel();
    await Promise.all([
      seedFinding(
        v.projectId,
        v.companyId,
        {
          dateCreated: at("2026-01-03T00:00:00Z"),
          status: "Closed",
          system: "Hull",
          priority: "Low",
        },
        "f3",
      ),
      seedFinding(v.projectId, v.companyId, { dateCreated: at("2026-01-01T00:00:00Z") }, "f1"),
      seedFinding(
        v.projectId,
        v.companyId,
        { dateCreated: at("2026-01-02T00:00:00Z"), hidden: true },
        "f2-hidden",
      ),
      seedFinding(v.projectId, v.companyId, { dateCreated: at("2026-01-02T00:00:00Z") }, "f2b"),
      seedFinding(v.projectId, v.companyId, { dateCreated: at("2026-01-02T00:00:00Z") }, "f2a"),
      seedFinding(v.projectId, v.companyId, { dateCreated: null }, "f0-null"),
      seedFinding(
        v.projectId,
        v.companyId,
        {
          dateCreated: new Timestamp(Date.parse("2026-01-04T00:00:00Z") / 1000, 1000),
          status: "Closed",
        },
        "f4",
      ),
      seedFinding(
        v.projectId,
        v.companyId,
        { dateCreated: at("2026-01-05T00:00:00Z"), hidden: true },
        "f5-hidden",
      ),
    ]);
  });

  it("orders by date_created ascending (no date first), ties by id, hidden findings removed", async () => {
    const res = await findings.get("/v1/findings", v.key);
    expect(res.status).toBe(200);
    expect(res.body.data.map((f: { id: string }) => f.id)).toEqual([
      "f0-null",
      "f1",
      "f2a",
      "f2b",
      "f3",
      "f4",
    ]);
    expect(res.body.next_page_token).toBeNull();
  });

  it.each([1, 2, 3, 5])(
    "pages with limit=%i without loops or gaps, even across hidden rows",
    async (limit) => {
      const all = await pages(v, `limit=${limit}`);
      expect(ids(all)).toEqual(["f0-null", "f1", "f2a", "f2b", "f3", "f4"]);
      for (const page of all) expect(page.data.length).toBeLessThanOrEqual(limit);
    },
  );

  it("returns a short or empty page that still has a next page when hidden rows fall in it", async () => {
    // limit=1: "f2-hidden" sorts before "f2a" on the same date, so its page is read and emptied.
    const all = await pages(v, "limit=1");
    const empties = all.filter((p) => p.data.length === 0 && p.next_page_token !== null);
    expect(empties.length).toBeGreaterThanOrEqual(1);
  });

  it("from is inclusive and excludes findings without a date; to is exclusive and keeps them", async () => {
    expect(ids(await pages(v, "from=2026-01-02"))).toEqual(["f2a", "f2b", "f3", "f4"]);
    expect(ids(await pages(v, "to=2026-01-03T00:00:00Z"))).toEqual(["f0-null", "f1", "f2a", "f2b"]);
    expect(ids(await pages(v, "from=2026-01-02&to=2026-01-03"))).toEqual(["f2a", "f2b"]);
    // Cursors and bounds keep Firestore's full (microsecond) precision.
    expect(ids(await pages(v, "from=2026-01-04T00:00:00.000001Z"))).toEqual(["f4"]);
    expect(ids(await pages(v, "from=2026-01-04T00:00:00.000002Z"))).toEqual([]);
    expect(ids(await pages(v, "to=2026-01-04T00:00:00.000001Z&from=2026-01-03"))).toEqual(["f3"]);
  });

  it("filters on one of status, system, priority, alone or with dates", async () => {
    expect(ids(await pages(v, "status=Closed"))).toEqual(["f3", "f4"]);
    expect(ids(await pages(v, "status=Closed&to=2026-01-04"))).toEqual(["f3"]);
    expect(ids(await pages(v, "system=Hull"))).toEqual(["f3"]);
    expect(ids(await pages(v, "priority=Low&from=2026-01-01"))).toEqual(["f3"]);
    expect(ids(await pages(v, "system=hull"))).toEqual([]);
    expect(
      ids(await pages(v, `priority=${encodeURIComponent("Shipyard confirmed rectification")}`)),
    ).toEqual([]);
  });
});

describe("GET /v1/findings, incremental sync", () => {
  let v: Vessel;
  beforeAll(async () => {
    v = await vessel();
    await Promise.all([
      seedFinding(
        v.projectId,
        v.companyId,
        { lastEditedDate: at("2026-02-03T00:00:00Z"), dateCreated: at("2025-01-01T00:00:00Z") },
        "e3",
      ),
      seedFinding(
        v.projectId,
        v.companyId,
        {
          lastEditedDate: at("2026-02-01T00:00:00Z"),
          dateCreated: at("2025-06-01T00:00:00Z"),
          status: "Cancelled",
        },
        "e1",
      ),
      seedFinding(
        v.projectId,
        v.companyId,
        { lastEditedDate: at("2026-02-02T00:00:00Z"), hidden: true },
        "e2-hidden",
      ),
      seedFinding(v.projectId, v.companyId, { lastEditedDate: null }, "e0-null"),
    ]);
  });

  it("returns findings edited at or after updated_since, by last_edited_date", async () => {
    expect(ids(await pages(v, "updated_since=2026-02-01T00:00:00Z"))).toEqual(["e1", "e3"]);
    expect(ids(await pages(v, "updated_since=2026-02-01T00:00:00.001Z"))).toEqual(["e3"]);
    expect(ids(await pages(v, "updated_since=2026-02-01&limit=1"))).toEqual(["e1", "e3"]);
    expect(ids(await pages(v, "updated_since=2026-01-01&status=Cancelled"))).toEqual(["e1"]);
  });
});

describe("GET /v1/findings, invalid requests → 400 invalid_request naming the parameter", () => {
  let v: Vessel;
  beforeAll(async () => {
    v = await vessel();
  });

  it.each([
    ["updated_since=2026-01-01&from=2026-01-01", "updated_since"],
    ["updated_since=2026-01-01&to=2026-02-01", "updated_since"],
    ["status=Open&system=Hull", "system"],
    ["status=Open&priority=High", "priority"],
    ["system=Hull&priority=High", "priority"],
    ["status=open", "status"],
    ["status=Unknown", "status"],
    [`system=${"x".repeat(201)}`, "system"],
    [`priority=${"x".repeat(201)}`, "priority"],
    ["system=", "system"],
    ["limit=0", "limit"],
    ["limit=501", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=-1", "limit"],
    ["limit=1&limit=2", "limit"],
    ["from=2026-02-30", "from"],
    ["from=2026-03-01T10:00:00%2B01:00", "from"],
    ["from=2026-03-01T10:00:00", "from"],
    ["to=yesterday", "to"],
    ["updated_since=1700000000", "updated_since"],
    ["from=2026-03-02&to=2026-03-01", "to"],
    ["from=2026-03-01&to=2026-03-01", "to"],
    ["page_size=10", "page_size"],
    ["page_token=", "page_token"],
  ])("%s", async (query, param) => {
    const res = await findings.get(`/v1/findings?${query}`, v.key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain(`"${param}"`);
  });

  it("accepts the limits of the range", async () => {
    expect((await findings.get("/v1/findings?limit=1", v.key)).status).toBe(200);
    expect((await findings.get("/v1/findings?limit=500", v.key)).status).toBe(200);
  });
});

describe("page_token", () => {
  let v: Vessel;
  let token: string;
  beforeAll(async () => {
    v = await vessel();
    for (let i = 0; i < 3; i++)
      await seedFinding(
        v.projectId,
        v.companyId,
        { dateCreated: at(`2026-01-0${i + 1}T00:00:00Z`), status: "Open" },
        `p${i}`,
      );
    token = (await findings.get("/v1/findings?limit=1&status=Open", v.key)).body.next_page_token;
    expect(token).toEqual(expect.any(String));
  });

  const expect400 = async (query: string, key = v.key) => {
    const res = await findings.get(`/v1/findings?${query}`, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain('"page_token"');
  };

  it("continues the same query, also from a new instance (no server-side state)", async () => {
    const res = await client(createFindingsApp()).get(
      `/v1/findings?limit=1&status=Open&page_token=${encodeURIComponent(token)}`,
      v.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((f: { id: string }) => f.id)).toEqual(["p1"]);
  });

  it("may change limit between pages", async () => {
    const res = await findings.get(
      `/v1/findings?limit=5&status=Open&page_token=${encodeURIComponent(token)}`,
      v.key,
    );
    expect(res.body.data.map((f: { id: string }) => f.id)).toEqual(["p1", "p2"]);
  });

  it("is refused when tampered with", async () => {
    const [payload, sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ v: 1, s: "x", c: [0, 0, "p2"] })).toString(
      "base64url",
    );
    await expect400(`status=Open&page_token=${forged}.${sig}`);
    await expect400(`status=Open&page_token=${payload}.${sig.slice(0, -2)}AA`);
    await expect400(`status=Open&page_token=${payload}`);
    await expect400("status=Open&page_token=not-a-token");
  });

  it("is refused with other filters or another mode", async () => {
    await expect400(`page_token=${encodeURIComponent(token)}`);
    await expect400(`status=Closed&page_token=${encodeURIComponent(token)}`);
    await expect400(`status=Open&from=2026-01-01&page_token=${encodeURIComponent(token)}`);
    await expect400(`updated_since=2026-01-01&page_token=${encodeURIComponent(token)}`);
  });

  it("is refused with another project's key", async () => {
    const other = await vessel();
    await expect400(`limit=1&status=Open&page_token=${encodeURIComponent(token)}`, other.key);
  });
});
