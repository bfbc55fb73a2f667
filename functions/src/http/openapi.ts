import { OpenApiGeneratorV3, OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { dialectOf, type ErrorDialect } from "./errorHandler";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import type { AnyRoute } from "./route";
import { z } from "./zod";

export interface ApiDescription {
  title: string;
  version: string;
  description: string;
  openapi: "3.0.3" | "3.1.0";
  /** Default of the `{base_url}` server variable (the local emulator URL). */
  defaultBaseUrl: string;
  /** Paths whose errors (and bodies) use another protocol's media type and error body (SCIM). */
  errorDialects?: ErrorDialect[];
}

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string().openapi({ description: "Human-readable explanation; do not parse it." }),
      request_id: z.string().openapi({ description: "Same value as the `X-Request-Id` response header." }),
      seat_capacity: z.number().int().optional().openapi({ description: "`seat-capacity-exhausted` only: the seats the company has." }),
      seats_used: z.number().int().optional().openapi({ description: "`seat-capacity-exhausted` only: the seats in use." }),
    }),
  })
  .openapi("Error");

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request: "A parameter or the body is malformed; the message names it.",
  unauthorized: "The API key is missing, malformed, unknown or revoked.",
  forbidden: "API access is off for the company, or the key may not do this.",
  insufficient_scope: "The key lacks the scope this endpoint needs (e.g. `provisioning`); create a key with it in the app.",
  not_found: "Unknown endpoint, or the resource does not exist for this key.",
  method_not_allowed: "The path exists but not with this method; see the `Allow` header.",
  conflict: "The request conflicts with existing data, e.g. a user with this e-mail address exists (in any company).",
  "seat-capacity-exhausted": "Provisioning would exceed the company's seat capacity; the body also carries `seat_capacity` and `seats_used`. Nothing was created.",
  payload_too_large: "The request body exceeds 64 KiB.",
  unsupported_media_type: "The request body is not JSON.",
  rate_limited: "Rate limit or daily quota exceeded; retry after `Retry-After` seconds.",
  internal: "Server-side failure; retry with exponential backoff.",
};

const RATE_HEADERS = {
  RateLimit: { description: 'The closer limit, e.g. `"minute";r=59;t=42` (draft-ietf-httpapi-ratelimit-headers-11).', schema: { type: "string" as const } },
  "RateLimit-Policy": { description: 'Both windows, e.g. `"minute";q=60;w=60, "day";q=10000;w=86400`.', schema: { type: "string" as const } },
};
const REQUEST_ID_HEADER = { "X-Request-Id": { description: "The request's id (echoed when the caller sent a sane one).", schema: { type: "string" as const } } };

/** The response of one HTTP status, for every code of the operation that answers with it. */
function errorResponse(codes: ErrorCode[], keyed: boolean, dialect: ErrorDialect | undefined): ResponseConfig {
  const headers: ResponseConfig["headers"] = { ...REQUEST_ID_HEADER };
  // Refused before the limiter (401, 403 forbidden) carry no RateLimit headers; the rest do.
  if (keyed && codes.some((code) => code !== "unauthorized" && code !== "forbidden")) Object.assign(headers, RATE_HEADERS);
  if (codes.includes("rate_limited")) headers["Retry-After"] = { description: "Seconds until the exhausted window frees up.", schema: { type: "integer" } };
  if (codes.includes("method_not_allowed")) headers.Allow = { description: "The methods this path supports.", schema: { type: "string" } };
  if (codes.includes("unauthorized")) headers["WWW-Authenticate"] = { description: "`Bearer` challenge.", schema: { type: "string" } };
  const description = codes.length === 1 ? ERROR_DESCRIPTIONS[codes[0]] : codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join(" ");
  return { description, headers, content: dialect ? { [dialect.contentType]: { schema: dialect.schema } } : { "application/json": { schema: errorSchema } } };
}

/** Builds the OpenAPI document of one API from its route definitions. */
export function buildDocument(api: ApiDescription, routes: AnyRoute[]): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register("Error", errorSchema);
  const bearer = registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer <API_KEY>`. Keys are created in the app and shown once.",
  });
  for (const route of routes) {
    const keyed = !route.public;
    const dialect = dialectOf(api.errorDialects ?? [], route.path);
    const bodyTypes = dialect ? [dialect.contentType, "application/json"] : ["application/json"];
    const status = String(route.success.status ?? 200);
    const content: Record<string, { schema: z.ZodType }> = {
      [route.success.contentType ?? "application/json"]: { schema: route.success.schema },
    };
    for (const [type, schema] of Object.entries(route.success.alternatives ?? {})) content[type] = { schema };
    const own = Object.fromEntries(Object.entries(route.success.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: "string" as const } }]));
    const success = (description: string, code: string): ResponseConfig => ({
      description,
      headers: { ...(keyed ? { ...REQUEST_ID_HEADER, ...RATE_HEADERS } : REQUEST_ID_HEADER), ...own },
      ...(code === "204" ? {} : { content }),
    });
    const responses: Record<string, ResponseConfig> = { [status]: success(route.success.description, status) };
    for (const [code, description] of Object.entries(route.success.otherStatuses ?? {})) responses[code] = success(description, code);
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of route.errors) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [httpStatus, codes] of byStatus) responses[String(httpStatus)] = errorResponse(codes, keyed, dialect);
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: route.tags,
      security: keyed ? [{ [bearer.name]: [] }] : [],
      request: {
        query: route.query,
        params: route.params,
        ...(route.body ? { body: { required: true, content: Object.fromEntries(bodyTypes.map((type) => [type, { schema: route.body as z.ZodType }])) } } : {}),
      },
      responses,
    });
  }
  const Generator = api.openapi === "3.0.3" ? OpenApiGeneratorV3 : OpenApiGeneratorV31;
  const document = new Generator(registry.definitions).generateDocument({
    openapi: api.openapi,
    info: {
      title: api.title,
      version: api.version,
      description: api.description,
      license: { name: "Proprietary; for use by customers under their service agreement" },
    },
    servers: [
      {
        url: "{base_url}",
        description: "The function's base address, without a trailing slash.",
        variables: { base_url: { default: api.defaultBaseUrl } },
      },
    ],
  });
  return document as unknown as Record<string, unknown>;
}
