import type { Express } from "express";
import { createCompanyApp } from "../../src/company/app";
import { createFindingsApp } from "../../src/findings/app";
import { client } from "../support/http";
import { exampleProblems } from "../support/openapiValidator";

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every (method, path) Express actually routes, except the 405 catch-alls (`app.all`). */
function servedRoutes(app: Express): string[] {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  return (
    stack
      .filter((layer) => layer.route && !layer.route.methods._all)
      .flatMap((layer) =>
        Object.keys(layer.route!.methods)
          .filter((m) => m !== "head" || !layer.route!.methods.get)
          .map((m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, "{$1}")}`),
      )
      // A route may have a handler in front of it (GET /v1/docs: the compressed, cacheable page).
      .filter((route, i, all) => all.indexOf(route) === i)
      .sort()
  );
}

function documentedRoutes(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe.each([
  ["findings", createFindingsApp, "3.0.3"],
  ["company", createCompanyApp, "3.1.0"],
])("OpenAPI document of the %s API", (_name, create, version) => {
  const app = create();
  const api = client(app);

  it(`is served without a key as OpenAPI ${version}, document version 1.0.0`, async () => {
    const res = await api.get("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe(version);
    expect(res.body.info.version).toBe("1.0.0");
    expect(res.body.components.securitySchemes.apiKey).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });

  it("describes exactly the routes the app serves", async () => {
    const doc = (await api.get("/v1/openapi.json")).body;
    expect(documentedRoutes(doc)).toEqual(servedRoutes(app));
  });

  it("documents the envelope for every error status of every keyed operation", async () => {
    const doc = (await api.get("/v1/openapi.json")).body;
    for (const [path, ops] of Object.entries<
      Record<
        string,
        {
          security: unknown[];
          responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
        }
      >
    >(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          // 431 is the runtime's own answer, before the API: documented without a body.
          if (status === "431") expect(response.content).toBeUndefined();
          else if (Number(status) >= 400 && path.startsWith("/scim/"))
            expect(response.content?.["application/scim+json"].schema.$ref).toBe(
              "#/components/schemas/ScimError",
            );
          else if (Number(status) >= 400)
            expect(response.content?.["application/json"].schema.$ref).toBe(
              "#/components/schemas/Error",
            );
        }
        if (op.security.length)
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "429"]));
        expect(Object.keys(op.responses)).toContain("431");
      }
    }
  });

  it("carries an example for every request and response body, and each matches its schema", async () => {
    const doc = (await api.get("/v1/openapi.json")).body;
    expect(exampleProblems(doc)).toEqual([]);
  });

  it("documents every JSON body outside SCIM as closed, and says what unknown query parameters get", async () => {
    const doc = (await api.get("/v1/openapi.json")).body;
    const schemas = doc.components.schemas as Record<string, { additionalProperties?: unknown }>;
    for (const [path, ops] of Object.entries<
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
          "x-unknown-query-parameters": string;
        }
      >
    >(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(["refused", "ignored"]).toContain(op["x-unknown-query-parameters"]);
        if (method === "get" && !path.startsWith("/scim/"))
          expect(op["x-unknown-query-parameters"]).toBe("refused");
        if (!op.requestBody || path.startsWith("/scim/")) continue;
        const ref = op.requestBody.content["application/json"].schema.$ref ?? "";
        expect({
          path,
          additionalProperties: schemas[ref.split("/").pop() ?? ""]?.additionalProperties,
        }).toEqual({ path, additionalProperties: false });
      }
    }
  });
});

describe("the SCIM operations' 400 in the company API's document", () => {
  it("describes the SCIM error body they answer, its examples by scimType, not the envelope", async () => {
    const doc = (await client(createCompanyApp()).get("/v1/openapi.json")).body;
    const ops = Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)
      .filter(([path]) => path.startsWith("/scim/"))
      .flatMap(([, byMethod]) => Object.values(byMethod));
    const badRequests = ops.map((op) => op.responses["400"]).filter(Boolean);
    expect(badRequests.length).toBeGreaterThanOrEqual(8);
    for (const res of badRequests as {
      description: string;
      content: Record<string, { examples: Record<string, { value: unknown }> }>;
    }[]) {
      expect(res.description).toMatch(/^A SCIM error \(RFC 7644 §3\.12\): `schemas`/);
      expect(res.description).toContain("`invalidSyntax`: The body is not valid JSON");
      expect(res.description).not.toContain("page or delta token");
      const examples = res.content["application/scim+json"].examples;
      expect(examples.invalidValue.value).toMatchObject({
        status: "400",
        scimType: "invalidValue",
      });
      expect(examples.invalidSyntax.value).toMatchObject({ scimType: "invalidSyntax" });
    }
  });
});
