import { createFindingsApp } from "../../src/findings/app";
import { seedVessel } from "../support/builders";
import { sync } from "../support/delta";
import { at, seedComment, seedFinding } from "../support/findingBuilders";
import { allPages, client } from "../support/http";

/** Page tokens the API issued are always accepted back; malformed requests are 400s. */
const findings = client(createFindingsApp());
let vessel: { companyId: string; projectId: string; key: string };

beforeAll(async () => {
  vessel = await seedVessel();
});

async function pages(path: string) {
  const all = await allPages((page) => findings.get(page, vessel.key), path, 50);
  return all.flatMap((p) => p.data.map((r: { id: string }) => r.id));
}

describe("page tokens", () => {
  it("are accepted back however long the ids are (1,500 bytes, multibyte and control characters)", async () => {
    const longIds = ["é".repeat(750), "\u0001".repeat(1500), `x${"🚢".repeat(374)}`];
    for (const [i, id] of longIds.entries()) {
      await seedFinding(
        vessel.projectId,
        vessel.companyId,
        { dateCreated: at(`2026-03-0${i + 1}T00:00:00Z`) },
        id,
      );
      await seedComment(
        vessel.projectId,
        longIds[0],
        { createdAt: at(`2026-03-0${i + 1}T00:00:00Z`) },
        id,
      );
    }
    expect(await pages("/v1/findings?limit=1&from=2026-03-01")).toEqual(longIds);
    expect(await pages(`/v1/findings/${encodeURIComponent(longIds[0])}/comments?limit=1`)).toEqual(
      longIds,
    );
    // Resuming after a 1,500-byte id: far below the documented 4,096 characters and the runtime's
    // 16 KiB.
    const token = (await findings.get("/v1/findings?limit=1&from=2026-03-01", vessel.key)).body
      .next_page_token as string;
    expect(token.length).toBeGreaterThan(2_000);
    expect(token.length).toBeLessThan(2_900);
  });

  it("are bound by the kernel to their operation, tenant, path and every filter", async () => {
    const [a, b] = ["bound-a", "bound-b"];
    for (const id of [a, b]) {
      await seedFinding(
        vessel.projectId,
        vessel.companyId,
        { dateCreated: at("2026-04-01T00:00:00Z") },
        id,
      );
      for (const day of ["01", "02"])
        await seedComment(
          vessel.projectId,
          id,
          { createdAt: at(`2026-04-${day}T00:00:00Z`) },
          `${id}-c${day}`,
        );
    }
    const token = encodeURIComponent(
      (await findings.get(`/v1/findings/${a}/comments?limit=1`, vessel.key)).body.next_page_token,
    );
    expect(
      (await findings.get(`/v1/findings/${a}/comments?limit=1&page_token=${token}`, vessel.key))
        .status,
    ).toBe(200);
    for (const replay of [
      `/v1/findings/${b}/comments?limit=1`,
      `/v1/findings/${a}/comments?limit=1&from=2026-01-01`,
      "/v1/findings?limit=1",
    ]) {
      const res = await findings.get(`${replay}&page_token=${token}`, vessel.key);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/another query/);
    }
  });

  it("survive a rotation of PAGE_TOKEN_SECRET: the previous secret is accepted until it is retired", async () => {
    const saved = process.env.PAGE_TOKEN_SECRET;
    const OLD = "rotation-test-old-secret-000000000001";
    const NEW = "rotation-test-new-secret-000000000002";
    try {
      process.env.PAGE_TOKEN_SECRET = OLD;
      const first = await findings.get("/v1/findings?limit=1", vessel.key);
      const token = first.body.next_page_token;
      process.env.PAGE_TOKEN_SECRET = `${NEW} ${OLD}`;
      const during = await findings.get(
        `/v1/findings?limit=1&page_token=${encodeURIComponent(token)}`,
        vessel.key,
      );
      expect(during.status).toBe(200);
      expect(during.body.data[0].id).not.toBe(first.body.data[0].id);
      process.env.PAGE_TOKEN_SECRET = NEW;
      const after = await findings.get(
        `/v1/findings?limit=1&page_token=${encodeURIComponent(token)}`,
        vessel.key,
      );
      expect(after.status).toBe(400);
      expect(after.body.error.message).toMatch(/retired; restart without page_token/);
    } finally {
      if (saved === undefined) delete process.env.PAGE_TOKEN_SECRET;
      else process.env.PAGE_TOKEN_SECRET = saved;
    }
  });

  it("a delta_token of a retired secret answers 410 resync_required (start over), not 400", async () => {
    const saved = process.env.PAGE_TOKEN_SECRET;
    try {
      process.env.PAGE_TOKEN_SECRET = "rotation-test-old-secret-000000000003";
      const copy = await sync((path) => findings.get(path, vessel.key), "/v1/findings/delta");
      const token = encodeURIComponent(copy.deltaToken);
      process.env.PAGE_TOKEN_SECRET = "rotation-test-new-secret-000000000004";
      const after = await findings.get(`/v1/findings/delta?delta_token=${token}`, vessel.key);
      expect([after.status, after.body.error.code]).toEqual([410, "resync_required"]);
      expect(after.body.error.message).toMatch(/retired; start a full copy again/);
      const tampered = await findings.get(`/v1/findings/delta?delta_token=x${token}`, vessel.key);
      expect(tampered.status).toBe(400);
    } finally {
      if (saved === undefined) delete process.env.PAGE_TOKEN_SECRET;
      else process.env.PAGE_TOKEN_SECRET = saved;
    }
  });
});

describe("malformed requests", () => {
  it("a path segment with bad percent-encoding → 400, not 500", async () => {
    const res = await findings.get("/v1/findings/%E0%A4%A/comments", vessel.key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "invalid_request",
      message: "The request path contains malformed percent-encoding.",
    });
  });

  it("a query parameter given twice → 400 saying so", async () => {
    const res = await findings.get("/v1/findings?limit=5&limit=6", vessel.key);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'Query parameter "limit" was given more than once; send each parameter at most once.',
    );
  });
});
