import request from "supertest";
import { COMPANY_API, createCompanyApp } from "../../src/company/app";
import { createFindingsApp, FINDINGS_API } from "../../src/findings/app";
import type { AnyRoute } from "../../src/http/route";
import { seedKey, seedVessel } from "../support/builders";
import { randomAddress } from "../support/http";
import { scimCompany } from "../support/scim";

/**
 * One test over every route of both APIs, read from the same route tables the apps mount, so a
 * new route cannot forget a rule: a keyed route answers 401 without a key and with the other
 * API's key; every write route of the company API needs the `provisioning` scope; every
 * response carries a request id and `Cache-Control: no-store`.
 */
const apps = { findings: createFindingsApp(), company: createCompanyApp() };
const keyed = (routes: readonly AnyRoute[]) => routes.filter((r) => !r.public);
const table = [
  ...keyed(FINDINGS_API.routes).map((route) => ({ api: "findings" as const, route })),
  ...keyed(COMPANY_API.routes).map((route) => ({ api: "company" as const, route })),
];
const name = ({ api, route }: (typeof table)[number]) =>
  `${api} ${route.method.toUpperCase()} ${route.path}`;

let keys: { findings: string; company: string; companyRead: string };

beforeAll(async () => {
  const vessel = await seedVessel();
  const { companyId, key } = await scimCompany();
  keys = {
    findings: vessel.key,
    company: key,
    companyRead: (await seedKey({ api: "company", companyId, scopes: ["read"] })).key,
  };
});

/**
 * The route's request with path parameters filled and, for a write, an empty JSON object as body.
 */
function send(api: "findings" | "company", route: AnyRoute, key?: string) {
  const path = route.path.replace(/\{[^}]+\}/g, "x");
  const req = request(apps[api])[route.method](path).set("X-Forwarded-For", randomAddress());
  if (key) req.set("Authorization", `Bearer ${key}`);
  if (route.method === "get" || route.method === "delete") return req;
  return req
    .set("Content-Type", path.startsWith("/scim/") ? "application/scim+json" : "application/json")
    .send("{}");
}

function expectCommonHeaders(res: request.Response): void {
  expect(res.headers["x-request-id"]).toMatch(/\S/);
  expect(res.headers["cache-control"]).toBe("no-store");
}

/** The error's code, from the envelope or (under /scim/v2) the SCIM error body's status. */
const refusal = (res: request.Response) =>
  res.body.error
    ? { status: res.status, code: res.body.error.code }
    : { status: res.status, scimStatus: res.body.status };

describe("the route table of both APIs", () => {
  it("lists every route of both apps, and at least the known ones", () => {
    expect(table.length).toBeGreaterThanOrEqual(4 + 11 + 10);
    expect(new Set(table.map(name)).size).toBe(table.length);
  });

  it.each(table.map((entry) => [name(entry), entry] as const))(
    "%s: 401 without a key and with the other API's key",
    async (_, { api, route }) => {
      for (const key of [undefined, api === "findings" ? keys.company : keys.findings]) {
        const res = await send(api, route, key);
        expect(refusal(res)).toEqual(
          route.path.startsWith("/scim/")
            ? { status: 401, scimStatus: "401" }
            : { status: 401, code: "unauthorized" },
        );
        expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
        expectCommonHeaders(res);
      }
    },
  );

  const writes = table.filter(({ api, route }) => api === "company" && route.method !== "get");
  it("declares the provisioning scope on every write route of the company API", () => {
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter(({ route }) => route.scope !== "provisioning").map(name)).toEqual([]);
  });

  it.each(writes.map((entry) => [name(entry), entry] as const))(
    "%s: 403 insufficient_scope with a read key",
    async (_, { route }) => {
      const res = await send("company", route, keys.companyRead);
      expect(refusal(res)).toEqual(
        route.path.startsWith("/scim/")
          ? { status: 403, scimStatus: "403" }
          : { status: 403, code: "insufficient_scope" },
      );
      expectCommonHeaders(res);
    },
  );

  it.each(table.map((entry) => [name(entry), entry] as const))(
    "%s: a request id and no-store with the right key too",
    async (_, { api, route }) => {
      const res = await send(api, route, keys[api]);
      // Never a server error.
      expect(res.status).toBeLessThan(500);
      expectCommonHeaders(res);
    },
  );
});
