import type { Express } from "express";
import fc from "fast-check";
import request from "supertest";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { seedComment, seedFinding } from "../support/findingBuilders";
import { randomAddress } from "../support/http";
import { operationCases, type RuleBreaker } from "../support/openapiCases";
import type { Fixtures, GeneratedRequest, Operation } from "../support/openapiRequests";
import { createResponseValidator } from "../support/openapiValidator";
import { asInFunctionsRuntime } from "../support/scim";

/**
 * Property-based test of both served documents (issue 17): requests generated from each
 * operation's parameter and body schemas, valid ones and ones that break one documented
 * constraint, sent to the app. Never a 5xx; every response has a documented status, content type
 * and schema; a valid request is never a 400; a schema-violating one is always a 4xx.
 * Bounded: a fixed seed, RUNS valid and RUNS invalid requests per operation (~760 in all).
 */
const SEED = 17;
const RUNS = 10;

type Doc = Parameters<typeof createResponseValidator>[0] & {
  paths: Record<string, Record<string, Operation>>;
};

/**
 * The rules the descriptions state, kept by valid requests (repair) and broken one at a time
 * (breakers).
 */
const has = (r: GeneratedRequest, name: string) => r.query.some(([k]) => k === name);
const without = (r: GeneratedRequest, ...names: string[]) =>
  r.query.filter(([k]) => !names.includes(k));
function repair(r: GeneratedRequest): GeneratedRequest {
  let query = r.query;
  if (has(r, "updated_since")) query = without({ ...r, query }, "from", "to");
  const from = query.find(([k]) => k === "from")?.[1];
  const to = query.find(([k]) => k === "to")?.[1];
  if (from && to && Date.parse(to) <= Date.parse(from)) query = without({ ...r, query }, "to");
  if (r.template === "/v1/findings") {
    const filters = query
      .filter(([k]) => ["status", "system", "priority"].includes(k))
      .slice(1)
      .map(([k]) => k);
    query = without({ ...r, query }, ...filters);
  }
  return { ...r, query };
}
const breakers = (template: string): RuleBreaker[] => {
  const windowed: RuleBreaker = (r) => ({
    ...r,
    query: [
      ...without(r, "from", "to", "updated_since"),
      ["from", "2026-03-01"],
      ["to", "2026-02-01T00:00:00Z"],
    ],
    violation: "rule: to after from",
  });
  if (template === "/v1/findings") {
    return [
      windowed,
      (r) => ({
        ...r,
        query: [
          ...without(r, "from", "updated_since"),
          ["updated_since", "2026-01-01"],
          ["from", "2025-01-01"],
        ],
        violation: "rule: updated_since with from",
      }),
      (r) => ({
        ...r,
        query: [
          ...without(r, "status", "system", "priority"),
          ["status", "Open"],
          ["system", "Deck"],
        ],
        violation: "rule: one filter",
      }),
    ];
  }
  return ["/v1/findings/{id}/comments", "/v1/incidents", "/v1/audit-logs"].includes(template)
    ? [windowed]
    : [];
};

/**
 * Values whose validity depends on stored data, and the SCIM attributes the core interprets (kept
 * from the example).
 */
function fixtures(ids: { finding?: string; user?: string }): Fixtures {
  const id = (known: string | undefined) =>
    fc.oneof(fc.constant(known ?? "none"), fc.string({ minLength: 1, maxLength: 40 }));
  return {
    value: (operationId, name) => {
      // Only tokens the API issued are valid.
      if (name === "page_token" || name === "delta_token") return fc.constant(undefined);
      if (name === "department")
        return operationId === "updateUser"
          ? fc.constantFrom("Deck", " engine ", null)
          : fc.constantFrom("Deck", " engine ");
      if (name === "filter")
        return operationId === "scimListGroups"
          ? fc.constant('displayName eq "Crew"')
          : fc.constantFrom(
              'userName eq "a@b.example"',
              'externalId eq "x-1"',
              'emails[type eq "work"].value eq "a@b.example"',
            );
      // A group's name: unique per company and never blank (a blank one is a refusal, not a valid
      // request).
      if (name === "displayName" && operationId.includes("Group"))
        return fc.constantFrom("Deck crew", "Engine room");
      if (name === "attributes" || name === "excludedAttributes")
        return fc.constantFrom("userName", "name.givenName,emails", "active");
      if (name === "id" && operationId === "scimGetResourceType")
        return fc.oneof(fc.constant("User"), fc.string({ minLength: 1, maxLength: 20 }));
      if (name === "id") return id(operationId.includes("Finding") ? ids.finding : ids.user);
      return undefined;
    },
    keepFromExample: (operationId, property) =>
      operationId.startsWith("scim") &&
      !["displayName", "externalId", "name", "active", "userName"].includes(property),
    repair,
  };
}

async function send(app: Express, key: string, r: GeneratedRequest) {
  const url = `${r.path}${r.query.length ? `?${new URLSearchParams(r.query).toString()}` : ""}`;
  const req = request(app)
    [r.method as "get"](url)
    .set("Authorization", `Bearer ${key}`)
    .set("X-Forwarded-For", randomAddress());
  return r.body === undefined
    ? req
    : req.set("Content-Type", r.contentType ?? "application/json").send(JSON.stringify(r.body));
}

async function checkApi(app: Express, key: string, ids: { finding?: string; user?: string }) {
  const document = (await request(app).get("/v1/openapi.json")).body as Doc;
  const validate = createResponseValidator(document);
  const found: string[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const { validRequest, invalidRequest } = operationCases(
        document,
        method,
        template,
        operation,
        fixtures(ids),
        breakers(template),
      );
      for (const [arm, arbitrary] of [
        ["valid", validRequest],
        ["invalid", invalidRequest],
      ] as const) {
        await fc
          .assert(
            fc.asyncProperty(arbitrary, async (r) => {
              const res = await send(app, key, r);
              const body = res.headers["content-type"]?.includes("json") ? res.body : res.text;
              const what = `${r.method.toUpperCase()} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.body)?.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
              if (res.status >= 500) throw new Error(`5xx: ${what}`);
              validate(r.method, r.path, res.status, body, res.headers["content-type"] ?? null);
              if (arm === "valid" && res.status === 400)
                throw new Error(`a valid request was refused: ${what}`);
              if (arm === "invalid" && (res.status < 400 || res.status >= 500))
                throw new Error(`${r.violation} was not refused: ${what}`);
            }),
            { seed: SEED, numRuns: RUNS, endOnFailure: true },
          )
          .catch((err: Error) =>
            found.push(
              `${operation.operationId} (${arm}): ${err.cause instanceof Error ? err.cause.message.slice(0, 700) : err.message.slice(0, 700)}`,
            ),
          );
      }
    }
  }
  return found;
}

describe("property-based: requests generated from the served OpenAPI documents", () => {
  it("findings API: no 5xx, every response documented, valid requests never 400, invalid ones always 4xx", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const { key } = await seedKey({
      api: "findings",
      companyId,
      projectId,
      rateLimits: { perMinute: 100_000, perDay: 1_000_000 },
    });
    const finding = await seedFinding(projectId, companyId);
    await seedComment(projectId, finding);
    expect(await checkApi(createFindingsApp(), key, { finding })).toEqual([]);
  });

  it("company API: no 5xx, every response documented, valid requests never 400, invalid ones always 4xx", async () => {
    const companyId = await seedCompany({ seatCapacity: 1000, seatsUsed: 0 });
    await Promise.all(
      ["Deck", "Engine", "HSE"].map((name) =>
        firestore()
          .doc(`companies/${companyId}/departments/dep-${name.toLowerCase()}`)
          .set({ name, parentId: null }),
      ),
    );
    const { key } = await seedKey({
      api: "company",
      companyId,
      scopes: ["read", "provisioning"],
      rateLimits: { perMinute: 100_000, perDay: 1_000_000 },
    });
    const app = asInFunctionsRuntime(createCompanyApp());
    const user = (
      await send(app, key, {
        method: "post",
        template: "/v1/users",
        path: "/v1/users",
        query: [],
        body: { email: "prop.user@example.com", display_name: "Prop User" },
      })
    ).body.data?.id;
    expect(await checkApi(app, key, { user })).toEqual([]);
  }, 120_000);
});
