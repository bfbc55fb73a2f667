import express from "express";
import request from "supertest";
import { createCompanyApp } from "../../src/company/app";
import { createFindingsApp } from "../../src/findings/app";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { seedFinding } from "../support/findingBuilders";
import { auditEntriesFor, client } from "../support/http";

const findings = client(createFindingsApp());
const company = client(createCompanyApp());
let key: string;
let companyId: string;
const keyOf = () => key;

beforeAll(async () => {
  companyId = await seedCompany();
  const projectId = await seedProject(companyId);
  key = (await seedKey({ api: "findings", companyId, projectId })).key;
});

describe("request ids", () => {
  it("never takes the caller's X-Request-Id as the id: a sane one is echoed as X-Client-Request-Id", async () => {
    const res = await findings.get("/v1/nope", key, { "X-Request-Id": "abc-123.x:y_z" });
    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.body.error.request_id).toBe(res.headers["x-request-id"]);
    expect(res.headers["x-client-request-id"]).toBe("abc-123.x:y_z");
  });

  it("gives two requests sent with the same X-Request-Id two ids, and audits both under the caller's id", async () => {
    const [a, b] = [
      await findings.get("/v1/project", key, { "X-Request-Id": `dup-${key.slice(-6)}` }),
      await findings.get("/v1/project", key, { "X-Request-Id": `dup-${key.slice(-6)}` }),
    ];
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    const entries = await auditEntriesFor(companyId, `dup-${key.slice(-6)}`);
    expect(entries.map((e) => e.requestId).sort()).toEqual(
      [a.headers["x-request-id"], b.headers["x-request-id"]].sort(),
    );
  });

  it.each([
    ["spaces", "a b"],
    ["too long", "x".repeat(129)],
    ["control characters", "a\tb"],
    ["a leading dash", "-abc"],
  ])("does not echo an incoming id with %s", async (_n, id) => {
    const res = await findings.raw().get("/v1").set("X-Request-Id", id);
    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.headers["x-client-request-id"]).toBeUndefined();
  });

  it("generates one when none is sent, on public and keyed responses alike", async () => {
    const res = await findings.raw().get("/v1");
    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe("error envelope", () => {
  it("unknown path with a valid key → 404 not_found, audited", async () => {
    const res = await findings.get("/v1/does-not-exist", key, {
      "X-Request-Id": `nf-${companyId}`,
    });
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.body).toEqual({
      error: {
        code: "not_found",
        message: expect.any(String),
        request_id: res.headers["x-request-id"],
      },
    });
    const [entry] = await auditEntriesFor(companyId, `nf-${companyId}`);
    expect(entry).toMatchObject({ status: 404, path: "/v1/does-not-exist", method: "GET" });
  });

  it("records a path of over 512 characters cut to 512, ending with …", async () => {
    const long = `/v1/${"a".repeat(6_000)}`;
    const res = await findings.get(long, key, { "X-Request-Id": `long-${companyId}` });
    expect(res.status).toBe(404);
    const [entry] = await auditEntriesFor(companyId, `long-${companyId}`);
    expect(entry.path).toBe(`${long.slice(0, 511)}…`);
  });

  it("unknown path without a key → 401 (every non-public path needs a key)", async () => {
    expect((await findings.get("/nowhere")).status).toBe(401);
  });

  it.each(["post", "put", "patch", "delete"] as const)(
    "%s on a read-only path → 405 with Allow",
    async (method) => {
      const res = await findings.raw()[method]("/v1/project").set("Authorization", `Bearer ${key}`);
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe("method_not_allowed");
      expect(res.headers.allow).toBe("GET, HEAD");
    },
  );

  it("405 on a public path needs no key", async () => {
    const res = await company.raw().delete("/v1/openapi.json");
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe("method_not_allowed");
  });

  it("malformed JSON body → 400 invalid_request in the envelope", async () => {
    const res = await findings
      .raw()
      .post("/v1/project")
      .set("Authorization", `Bearer ${key}`)
      .set("Content-Type", "application/json")
      .send("{bad");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "invalid_request",
      message: "The request body is not valid JSON.",
    });
  });

  it("oversized body → 413 payload_too_large in the envelope", async () => {
    const res = await findings
      .raw()
      .post("/v1/project")
      .set("Authorization", `Bearer ${key}`)
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ x: "y".repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it("unknown query parameter → 400 naming it (no silent default page)", async () => {
    const res = await findings.get("/v1/project?page_size=5", key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain('"page_size"');
  });

  it("unknown query parameter on a public route → 400 too", async () => {
    const res = await findings.get("/v1?verbose=1");
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('"verbose"');
  });
});

describe("headers", () => {
  it("no X-Powered-By, even when the host app (the Functions runtime's Express) sets one", async () => {
    const host = express();
    host.use(createFindingsApp());
    for (const [path, key] of [
      ["/v1", undefined],
      ["/v1/project", undefined],
      ["/v1/nope", keyOf()],
    ] as const) {
      const req = request(host).get(path);
      if (key) req.set("Authorization", `Bearer ${key}`);
      expect((await req).headers["x-powered-by"]).toBeUndefined();
    }
  });
});

describe("public endpoints", () => {
  it.each([
    [findings, "Vessel Findings Export API", "3.0.3"],
    [company, "Company Safety-Data and Provisioning API", "3.1.0"],
  ])("GET /v1 answers metadata without a key (%#)", async (api, name, openapi) => {
    const res = await api.get("/v1");
    expect(res.status).toBe(200);
    const links = {
      openapi: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/openapi\.json$/),
      docs: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/docs$/),
    };
    expect(res.body).toEqual({
      data: { name, api_version: "v1", document_version: "1.0.0", openapi_version: openapi, links },
    });
    expect(res.headers.ratelimit).toBeUndefined();
  });

  it.each([
    [
      "europe-west1-acme.cloudfunctions.net",
      "https://europe-west1-acme.cloudfunctions.net/findingsApi",
    ],
    ["findingsapi-abc123-ew.a.run.app", "https://findingsapi-abc123-ew.a.run.app"],
    ["api.example.com", "https://api.example.com"],
  ])("links resolve against the function's own base address (Host %s)", async (host, base) => {
    const target = process.env.FUNCTION_TARGET;
    process.env.FUNCTION_TARGET = "findingsApi";
    try {
      const res = await findings.raw().get("/v1").set("Host", host);
      expect(res.body.data.links).toEqual({
        openapi: `${base}/v1/openapi.json`,
        docs: `${base}/v1/docs`,
      });
    } finally {
      if (target === undefined) delete process.env.FUNCTION_TARGET;
      else process.env.FUNCTION_TARGET = target;
    }
  });

  it("the openapi link works when followed", async () => {
    const { links } = (await findings.get("/v1")).body.data;
    const res = await findings.raw().get(new URL(links.openapi).pathname);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.0.3");
  });

  it("HEAD /v1 answers without a body", async () => {
    const res = await findings.raw().head("/v1");
    expect(res.status).toBe(200);
  });

  it("a page is sent in pieces yet reads as one JSON document; HEAD of it has no body", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        seedFinding(projectId, companyId, { title: `Finding ${i} ${"ü".repeat(2000)}` }),
      ),
    );
    const res = await findings.get("/v1/findings?limit=50", key.key);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.text).toBe(JSON.stringify(res.body));
    expect(res.body.data).toHaveLength(50);
    expect(res.body.data.every((f: { title: string }) => f.title.endsWith("ü".repeat(2000)))).toBe(
      true,
    );
    expect(typeof res.body.next_page_token).toBe("string");
    const head = await findings
      .raw()
      .head("/v1/findings?limit=50")
      .set("Authorization", `Bearer ${key.key}`);
    expect(head.status).toBe(200);
    expect(head.text ?? "").toBe("");
  });
});
