import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import request from "supertest";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { FAILURES_PER_MINUTE } from "../../src/http/refusalMemory";
import { generateKey, hashKey } from "../../src/lib/apiKeyFormat";
import * as apiKeys from "../../src/repos/apiKeys";
import { seedCompany, seedKey, seedProvisioningKey, seedVessel } from "../support/builders";
import { auditCount, auditEntriesFor, randomAddress } from "../support/http";
import { asInFunctionsRuntime } from "../support/scim";

/** The attacks of a security review, each written as the requests an attacker sends. */
const findingsApp = createFindingsApp();
const companyApp = asInFunctionsRuntime(createCompanyApp());

/** The company app listening on a free local port, for requests written as bytes. */
async function listening(): Promise<{ server: Server; port: number }> {
  const server = companyApp.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function auditEntries(companyId: string) {
  return (await firestore().collection(`companies/${companyId}/auditLogs`).get()).docs.map((d) =>
    d.data(),
  );
}

describe("a leaked key that was revoked, in a loop", () => {
  it("200 requests from 200 addresses grow the audit trail by a small constant, never as privileged", async () => {
    const companyId = await seedCompany();
    const key = await seedKey({
      api: "company",
      companyId,
      scopes: ["read", "provisioning"],
      revoked: true,
    });
    const before = await auditCount(companyId);
    for (let i = 0; i < 200; i++) {
      const res = await request(companyApp)
        .get("/v1/incidents")
        .set("Authorization", `Bearer ${key.key}`)
        .set("X-Forwarded-For", randomAddress());
      expect(res.status).toBe(401);
    }
    const entries = await auditEntries(companyId);
    // One entry per minute and status; the loop may straddle a minute boundary.
    expect(entries.length - before).toBeLessThanOrEqual(2);
    expect(
      entries.every(
        (e) => e.class === "operational" && e.action === "api.refused" && e.status === 401,
      ),
    ).toBe(true);
    const counted = entries.reduce((sum, e) => sum + e.count, 0);
    expect(counted).toBeGreaterThanOrEqual(1);
    expect(counted).toBeLessThanOrEqual(200);
  });

  it("from one address: refused from memory, without a key read, once the address's failures are spent", async () => {
    const address = randomAddress();
    const send = (key: string) =>
      request(findingsApp)
        .get("/v1/project")
        .set("Authorization", `Bearer ${key}`)
        .set("X-Forwarded-For", `10.0.0.1, ${address}`);
    const good = (await seedVessel()).key;
    expect((await send(good)).status).toBe(200);
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
      const res = await send(generateKey("findings"));
      // Unless the loop crossed into a new minute (then the budget restarts): 401 each.
      expect([401, 429]).toContain(res.status);
    }
    // Every request reads its key through readKeyDocuments (the key, its counter, its owners).
    const reads = jest.spyOn(apiKeys, "readKeyDocuments");
    try {
      const blocked = await send(generateKey("findings"));
      if (blocked.status === 429) {
        expect(blocked.body.error.code).toBe("rate_limited");
        expect(Number(blocked.headers["retry-after"])).toBeGreaterThanOrEqual(1);
        expect(reads).not.toHaveBeenCalled();
      } else {
        // The minute turned during the loop: the budget restarted, so this one was still read.
        expect(blocked.status).toBe(401);
      }
      // A key that authenticated here before keeps working from that address, and is read: the
      // spy sees the reads it must not see above.
      expect((await send(good)).status).toBe(200);
      expect(reads).toHaveBeenLastCalledWith(hashKey(good), expect.anything(), expect.any(Number));
    } finally {
      reads.mockRestore();
    }
  });
});

describe("bodies the runtime reads before the app", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const started = await listening();
    server = started.server;
    base = `http://127.0.0.1:${started.port}`;
  });
  afterAll(() => server.close());

  /** Sent as bytes, the way a client (or attacker) puts them on the wire; no key. */
  const post = (path: string, headers: Record<string, string>, body: RequestInit["body"]) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "x-forwarded-for": randomAddress(), ...headers },
      body,
      duplex: "half",
    });

  const errorOf = async (res: Response) =>
    ((await res.json()) as { error: { code: string; request_id: string } }).error;

  it("refuses a gzip-encoded body with 415 before looking at the key", async () => {
    const res = await post(
      "/v1/worked-hours",
      { "content-type": "application/json", "content-encoding": "gzip" },
      gzipSync(JSON.stringify({ month: "2025-01", hours: 1 })),
    );
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toMatchObject({
      code: "unsupported_media_type",
      request_id: res.headers.get("x-request-id"),
    });
  });

  it("refuses a body over 64 KiB with 413 whatever its type, before looking at the key", async () => {
    for (const type of ["application/json", "application/scim+json", "text/plain"]) {
      const res = await post(
        "/v1/worked-hours",
        { "content-type": type },
        JSON.stringify({ pad: "x".repeat(300_000) }),
      );
      expect(res.status).toBe(413);
      expect((await errorOf(res)).code).toBe("payload_too_large");
    }
  });

  it("refuses a chunked body over 64 KiB by the bytes the runtime read (no Content-Length to trust)", async () => {
    const chunk = new TextEncoder().encode(JSON.stringify({ pad: "x".repeat(100_000) }));
    const res = await post(
      "/v1/worked-hours",
      { "content-type": "application/json" },
      new ReadableStream({ start: (c) => (c.enqueue(chunk), c.close()) }),
    );
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("payload_too_large");
  });

  it("answers under /scim/v2 as a SCIM error", async () => {
    const res = await post(
      "/scim/v2/Users",
      { "content-type": "application/scim+json", "content-encoding": "gzip" },
      gzipSync("{}"),
    );
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      status: "415",
      schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
    });
  });
});

describe("a request target that would hide the resource from the audit trail", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    ({ server, port } = await listening());
  });
  afterAll(() => server.close());

  /** A request with its target written as is on the request line (fetch cannot send one). */
  const send = (target: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; replayed?: string | string[] }>((resolve, reject) => {
      const method = body === undefined ? "GET" : "POST";
      const req = httpRequest({ host: "127.0.0.1", port, path: target, method, headers }, (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, replayed: res.headers["idempotent-replayed"] }),
        );
      });
      req.on("error", reject).end(body);
    });

  it.each([
    [
      "an absolute-form target with 6,000 characters of user info",
      (p: string) => `http://${"u".repeat(6_000)}@x${p}`,
    ],
    ["a fragment of 6,000 characters", (p: string) => `${p}#${"f".repeat(6_000)}`],
  ])("%s is recorded as the path it was routed on", async (_, target) => {
    const companyId = await seedCompany();
    const { key } = await seedKey({ api: "company", companyId, scopes: ["read"] });
    const { status } = await send(target("/v1/incidents"), {
      authorization: `Bearer ${key}`,
      "x-forwarded-for": randomAddress(),
      "x-request-id": `target-${companyId}`,
    });
    expect(status).toBe(200);
    const [entry] = await auditEntriesFor(companyId, `target-${companyId}`);
    expect(entry).toMatchObject({ status: 200, method: "GET", path: "/v1/incidents" });
  });

  it("an absolute-form retry of an idempotent write is the same request: replayed", async () => {
    const companyId = await seedCompany({ seatCapacity: 10, seatsUsed: 0 });
    const headers = {
      authorization: `Bearer ${await seedProvisioningKey(companyId)}`,
      "content-type": "application/json",
      "idempotency-key": `idem-${companyId}`,
      "x-forwarded-for": randomAddress(),
    };
    const body = JSON.stringify({ email: `ana@${companyId}.example`, display_name: "Ana" });
    const first = await send("/v1/users", headers, body);
    const again = await send(`http://host/v1/users#${"f".repeat(600)}`, headers, body);
    expect([first.status, first.replayed]).toEqual([201, undefined]);
    expect([again.status, again.replayed]).toEqual([201, "true"]);
  });
});
