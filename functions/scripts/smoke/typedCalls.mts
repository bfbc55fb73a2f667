// The smoke test's calls through the typed clients an integrator generates from the served
// documents (openapi-typescript types, openapi-fetch calls): one call or more of every operation of
// both APIs against the Functions emulator. Compiled by tsconfig.clients.json against
// generated/*.ts, so a parameter, body or response the document no longer describes fails tsc;
// every response is also checked against the served document (status, content type, schema).
import { readFileSync } from "node:fs";
import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths as CompanyPaths } from "../../generated/company.js";
import type { paths as FindingsPaths } from "../../generated/findings.js";
import { createResponseValidator } from "../../test/support/openapiValidator.js";

export interface TypedContext {
  base: string;
  keys: { vessel: string; read: string; provisioning: string };
  /** Counts a check as passed, or records why it failed. */
  check: (name: string, ok: boolean, detail?: unknown) => void;
}

/** A client whose every response is validated against the served document it was generated from. */
function typedClient<P extends object>(
  functionsDir: string,
  name: "findings" | "company",
  baseUrl: string,
  check: TypedContext["check"],
): Client<P> {
  // This file runs compiled under generated/smoke/: the document is found from the functions directory.
  const document = JSON.parse(
    readFileSync(`${functionsDir}/generated/openapi/${name}.openapi.json`, "utf8"),
  ) as Parameters<typeof createResponseValidator>[0];
  const validate = createResponseValidator(document);
  const validation: Middleware = {
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      const type = response.headers.get("content-type");
      const path = new URL(request.url).pathname.slice(new URL(baseUrl).pathname.length);
      try {
        validate(
          request.method,
          path,
          response.status,
          type?.includes("json") && text ? JSON.parse(text) : text,
          text ? type : null,
        );
      } catch (err) {
        check(
          `${name} ${request.method} ${path} matches the document`,
          false,
          (err as Error).message.slice(0, 300),
        );
      }
    },
  };
  const client = createClient<P>({ baseUrl });
  client.use(validation);
  return client;
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

export async function findingsCalls(
  functionsDir: string,
  { base, keys, check }: TypedContext,
): Promise<void> {
  const api = typedClient<FindingsPaths>(functionsDir, "findings", `${base}/findingsApi`, check);
  const headers = bearer(keys.vessel);
  const meta = await api.GET("/v1");
  check(
    "typed findings GET /v1",
    meta.data?.data.name === "Vessel Findings Export API",
    meta.error,
  );
  const doc = await api.GET("/v1/openapi.json");
  check("typed findings GET /v1/openapi.json", doc.data?.openapi === "3.0.3", doc.response.status);
  const page = await api.GET("/v1/docs", { parseAs: "text" });
  check(
    "typed findings GET /v1/docs",
    typeof page.data === "string" && page.data.includes("Vessel Findings Export API"),
    page.response.status,
  );
  const project = await api.GET("/v1/project", { headers });
  check("typed findings GET /v1/project", project.data?.data.id === "demo-vessel-a", project.error);
  // The export loop of docs/api-behaviour.md ("Typed clients"): every finding of the vessel, following next_page_token.
  const ids: string[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const { data, error } = await api.GET("/v1/findings", {
      params: { query: { limit: 120, page_token: token } },
      headers,
    });
    if (!data) return check("typed findings export", false, error);
    ids.push(...data.data.map((f) => f.id));
    token = data.next_page_token ?? undefined;
    if (!token) break;
  }
  check(
    "typed findings export: 300 distinct findings",
    ids.length === 300 && new Set(ids).size === 300,
    ids.length,
  );
  const comments = await api.GET("/v1/findings/{id}/comments", {
    params: { path: { id: "vessel-a-f0001" }, query: { from: "2020-01-01", limit: 50 } },
    headers,
  });
  check("typed findings GET comments", Array.isArray(comments.data?.data), comments.error);
  const attachments = await api.GET("/v1/findings/{id}/attachments", {
    params: { path: { id: ids[0] }, query: { limit: 10 } },
    headers,
  });
  check(
    "typed findings GET attachments",
    attachments.data?.finding_id === ids[0],
    attachments.error,
  );
  const vesselComments = await api.GET("/v1/comments", {
    params: { query: { limit: 500 } },
    headers,
  });
  check(
    "typed findings GET vessel-wide comments",
    (vesselComments.data?.data ?? []).every((c) => typeof c.finding_id === "string"),
    vesselComments.error,
  );
  const vesselAttachments = await api.GET("/v1/attachments", {
    params: { query: { limit: 10 } },
    headers,
  });
  check(
    "typed findings GET vessel-wide attachments, each with its content_url",
    (vesselAttachments.data?.data ?? []).every((a) => a.content_url.includes("/content")),
    vesselAttachments.error,
  );
  // A page_token at the documented maximum reaches the API (400, not the runtime's 431); one over it is refused by name.
  for (const length of [4_096, 4_097]) {
    const long = await api.GET("/v1/findings", {
      params: { query: { page_token: "x".repeat(length) } },
      headers,
    });
    const named = (long.error as { error?: { code?: string; message?: string } } | undefined)
      ?.error;
    check(
      `page_token of ${length} characters: our 400`,
      long.response.status === 400 &&
        named?.code === "invalid_request" &&
        /page_token/.test(named.message ?? ""),
      long.response.status,
    );
  }
  // A URL over Node's 16 KiB: the runtime's 431, no body.
  const oversized = await api.GET("/v1/findings", {
    params: { query: { page_token: "x".repeat(16_384) } },
    headers,
    parseAs: "text",
  });
  check(
    "oversized URL: the runtime's 431 with an empty body",
    oversized.response.status === 431 &&
      !oversized.error &&
      !oversized.response.headers.get("content-type"),
    oversized.response.status,
  );
}

export async function companyCalls(
  functionsDir: string,
  { base, keys, check }: TypedContext,
): Promise<void> {
  const api = typedClient<CompanyPaths>(functionsDir, "company", `${base}/companyApi`, check);
  const read = bearer(keys.read);
  const prov = bearer(keys.provisioning);
  const scim = { ...prov, "Content-Type": "application/scim+json" };
  const meta = await api.GET("/v1");
  check("typed company GET /v1", meta.data?.data.openapi_version === "3.1.0", meta.error);
  const doc = await api.GET("/v1/openapi.json");
  check("typed company GET /v1/openapi.json", doc.data?.openapi === "3.1.0", doc.response.status);
  const page = await api.GET("/v1/docs", { parseAs: "text" });
  check(
    "typed company GET /v1/docs",
    typeof page.data === "string" && page.data.includes("Company Safety-Data"),
    page.response.status,
  );
  const incidents = await api.GET("/v1/incidents", {
    params: { query: { limit: 5, status: "closed", from: "2024-01-01" } },
    headers: read,
  });
  check(
    "typed GET /v1/incidents",
    incidents.data?.data.length === 5 && incidents.data.data.every((i) => i.status === "closed"),
    incidents.error,
  );
  const kpis = await api.GET("/v1/kpis", { headers: read });
  check(
    "typed GET /v1/kpis",
    kpis.data?.data.areas.incidents.by_type !== undefined && kpis.data.data.months.length === 24,
    kpis.error,
  );
  const esrs = await api.GET("/v1/esrs-s1", { params: { query: { year: 2025 } }, headers: read });
  // The response is JSON or (format=csv) text: the generated type is the union of the two.
  check(
    "typed GET /v1/esrs-s1",
    typeof esrs.data === "object" && esrs.data.data.datapoints.length === 20,
    esrs.error,
  );
  const csv = await api.GET("/v1/esrs-s1", {
    params: { query: { year: 2025, format: "csv" } },
    headers: read,
    parseAs: "text",
  });
  check(
    "typed GET /v1/esrs-s1 as CSV",
    typeof csv.data === "string" && csv.data.startsWith("datapoint_id"),
    csv.response.status,
  );
  const audit = await api.GET("/v1/audit-logs", {
    params: { query: { class: "operational", limit: 3 } },
    headers: read,
  });
  check("typed GET /v1/audit-logs", (audit.data?.data.length ?? 0) > 0, audit.error);
  const hours = await api.GET("/v1/worked-hours", {
    params: { query: { year: 2025 } },
    headers: read,
  });
  check("typed GET /v1/worked-hours", hours.data?.data.months.length === 12, hours.error);
  const set = await api.POST("/v1/worked-hours", {
    body: { month: "2025-06", hours: 12480.5 },
    headers: prov,
  });
  check(
    "typed POST /v1/worked-hours",
    set.data?.data.source === "api" && [200, 201].includes(set.response.status),
    set.error,
  );
  await usersCalls(api, prov, check);
  await scimCalls(api, scim, check);
}

async function usersCalls(
  api: Client<CompanyPaths>,
  headers: Record<string, string>,
  check: TypedContext["check"],
): Promise<void> {
  // Its first provisioning call: a silent invite through /v1/users (no SCIM).
  const email = `typed-${Date.now()}@demo.example`;
  const invited = await api.POST("/v1/users", {
    body: { email, display_name: "Typed Client" },
    headers,
  });
  check(
    "typed POST /v1/users",
    invited.response.status === 201 && invited.data?.data.status === "invited",
    invited.error,
  );
  const id = invited.data?.data.id ?? "missing";
  const listed = await api.GET("/v1/users", { params: { query: { email } }, headers });
  check("typed GET /v1/users", listed.data?.data[0]?.id === id, listed.error);
  const one = await api.GET("/v1/users/{id}", { params: { path: { id } }, headers });
  check("typed GET /v1/users/{id}", one.data?.data.email === email, one.error);
  const renamed = await api.PATCH("/v1/users/{id}", {
    params: { path: { id } },
    body: { display_name: "Typed Client 2", active: false },
    headers,
  });
  check("typed PATCH /v1/users/{id}", renamed.data?.data.status === "deactivated", renamed.error);
  const removed = await api.DELETE("/v1/users/{id}", { params: { path: { id } }, headers });
  check("typed DELETE /v1/users/{id}", removed.response.status === 204, removed.error);
}

async function scimCalls(
  api: Client<CompanyPaths>,
  headers: Record<string, string>,
  check: TypedContext["check"],
): Promise<void> {
  const config = await api.GET("/scim/v2/ServiceProviderConfig", { headers });
  check("typed SCIM ServiceProviderConfig", config.response.status === 200, config.error);
  const types = await api.GET("/scim/v2/ResourceTypes", { headers });
  check("typed SCIM ResourceTypes (User, Group)", types.data?.totalResults === 2, types.error);
  const type = await api.GET("/scim/v2/ResourceTypes/{id}", {
    params: { path: { id: "User" } },
    headers,
  });
  check("typed SCIM ResourceTypes/User", type.data?.id === "User", type.error);
  const schemas = await api.GET("/scim/v2/Schemas", { headers });
  check(
    "typed SCIM Schemas (User, enterprise, Group)",
    schemas.data?.totalResults === 3,
    schemas.error,
  );
  const schema = await api.GET("/scim/v2/Schemas/{id}", {
    params: { path: { id: "urn:ietf:params:scim:schemas:core:2.0:User" } },
    headers,
  });
  check("typed SCIM Schemas/{id}", schema.response.status === 200, schema.error);
  const userName = `typed-scim-${Date.now()}@demo.example`;
  const body = {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName,
    name: { givenName: "Typed", familyName: "Scim" },
    active: true,
  };
  const created = await api.POST("/scim/v2/Users", { body, headers });
  check(
    "typed SCIM POST Users",
    created.response.status === 201 && created.data?.userName === userName,
    created.error,
  );
  const id = created.data?.id ?? "missing";
  const found = await api.GET("/scim/v2/Users", {
    params: { query: { filter: `userName eq "${userName}"`, count: 10 } },
    headers,
  });
  check("typed SCIM GET Users?filter", found.data?.totalResults === 1, found.error);
  const one = await api.GET("/scim/v2/Users/{id}", {
    params: { path: { id }, query: { attributes: "userName" } },
    headers,
  });
  check("typed SCIM GET Users/{id}", one.data?.userName === userName, one.error);
  const replaced = await api.PUT("/scim/v2/Users/{id}", {
    params: { path: { id } },
    body: { ...body, displayName: "Typed Scim" },
    headers,
  });
  check("typed SCIM PUT Users/{id}", replaced.data?.displayName === "Typed Scim", replaced.error);
  const patched = await api.PATCH("/scim/v2/Users/{id}", {
    params: { path: { id } },
    body: {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", value: { active: false } }],
    },
    headers,
  });
  check("typed SCIM PATCH Users/{id}", patched.data?.active === false, patched.error);
  const removed = await api.DELETE("/scim/v2/Users/{id}", { params: { path: { id } }, headers });
  check("typed SCIM DELETE Users/{id}", removed.response.status === 204, removed.error);
  // A group of the created user: created, found by name, renamed, replaced, deleted.
  const member = await api.POST("/scim/v2/Users", {
    body: { ...body, userName: `crew-${userName}` },
    headers,
  });
  const crew = await api.POST("/scim/v2/Groups", {
    body: {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
      displayName: "Typed crew",
      members: [{ value: member.data?.id ?? "missing" }],
    },
    headers,
  });
  check(
    "typed SCIM POST Groups",
    crew.response.status === 201 && crew.data?.members?.length === 1,
    crew.error,
  );
  const gid = crew.data?.id ?? "missing";
  const groups = await api.GET("/scim/v2/Groups", {
    params: { query: { filter: 'displayName eq "typed crew"', excludedAttributes: "members" } },
    headers,
  });
  check("typed SCIM GET Groups?filter", groups.data?.totalResults === 1, groups.error);
  const renamed = await api.PATCH("/scim/v2/Groups/{id}", {
    params: { path: { id: gid } },
    body: {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "displayName", value: "Typed deck crew" }],
    },
    headers,
  });
  check(
    "typed SCIM PATCH Groups/{id}",
    renamed.data?.displayName === "Typed deck crew",
    renamed.error,
  );
  const put = await api.PUT("/scim/v2/Groups/{id}", {
    params: { path: { id: gid } },
    body: { displayName: "Typed crew", members: [] },
    headers,
  });
  check("typed SCIM PUT Groups/{id}", put.data?.members === undefined, put.error);
  const deleted = await api.DELETE("/scim/v2/Groups/{id}", {
    params: { path: { id: gid } },
    headers,
  });
  const gone = await api.GET("/scim/v2/Groups/{id}", { params: { path: { id: gid } }, headers });
  check(
    "typed SCIM DELETE Groups/{id}, then 404",
    deleted.response.status === 204 && gone.response.status === 404,
    [deleted.response.status, gone.response.status],
  );
}
