import {
  OpenApiGeneratorV3,
  OpenApiGeneratorV31,
  OpenAPIRegistry,
  type ResponseConfig,
} from "@asteasolutions/zod-to-openapi";
import { dialectOf, type ErrorDialect } from "./errorHandler";
import { ERRORS, type ErrorCode } from "./errors";
import { idempotencyKeyHeader, REPLAYED_RESPONSE_HEADER } from "./idempotency";
import {
  errorResponse,
  errorSchema,
  PLATFORM_BAD_REQUEST,
  PLATFORM_HEADERS_TOO_LARGE,
  successHeaders,
} from "./openapiErrors";
import { kernelErrors, type AnyRoute } from "./route";
import type { z } from "./zod";

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

/**
 * Every operation that takes a body can be refused for its size or encoding before anything else.
 */
const BODY_ERRORS: ErrorCode[] = ["invalid_request", "payload_too_large", "unsupported_media_type"];

/** Are unknown query parameters refused (a strict zod object) rather than ignored (SCIM)? */
const closedQuery = (query: z.ZodObject | undefined) =>
  query?._zod.def.catchall?._zod.def.type === "never";

/**
 * What the description says beyond the schemas: the rules between parameters (route.rules) and
 * the handling of unknown and repeated query parameters, which OpenAPI cannot express either.
 */
function describe(route: AnyRoute): string | undefined {
  const rules = [
    ...(route.rules ?? []),
    closedQuery(route.query)
      ? "Unknown query parameters are refused, naming them."
      : "Query parameters this operation does not define are ignored.",
    "A query parameter given more than once is refused.",
  ];
  const list = rules.map((rule) => `- ${rule}`).join("\n");
  return (
    `${route.description ? `${route.description}\n\n` : ""}**Parameter rules** (a ` +
    `request that breaks one is a \`400\`):\n${list}`
  );
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
    const content: Record<string, { schema: z.ZodType; example?: unknown }> = {
      [route.success.contentType ?? "application/json"]: {
        schema: route.success.schema,
        example: route.success.example,
      },
    };
    Object.assign(content, route.success.alternatives ?? {});
    const own = Object.fromEntries(
      Object.entries(route.success.headers ?? {}).map(([name, description]) => [
        name,
        { description, schema: { type: "string" as const } },
      ]),
    );
    if (!route.public && route.idempotency) Object.assign(own, REPLAYED_RESPONSE_HEADER);
    const success = (description: string, code: string): ResponseConfig => ({
      description,
      headers: { ...successHeaders(keyed), ...own },
      ...(code === "204" || code === "304" ? {} : { content }),
    });
    const responses: Record<string, ResponseConfig> = {
      [status]: success(route.success.description, status),
    };
    for (const [code, description] of Object.entries(route.success.otherStatuses ?? {}))
      responses[code] = success(description, code);
    const byStatus = new Map<number, ErrorCode[]>();
    const errors = [
      ...new Set([...route.errors, ...kernelErrors(route), ...(route.body ? BODY_ERRORS : [])]),
    ];
    for (const code of errors) {
      const httpStatus = ERRORS[code].status;
      byStatus.set(httpStatus, [...(byStatus.get(httpStatus) ?? []), code]);
    }
    for (const [httpStatus, codes] of byStatus)
      responses[String(httpStatus)] = errorResponse(codes, keyed, dialect);
    if (route.body) {
      const badRequest = responses["400"];
      badRequest.description = `${badRequest.description} ${PLATFORM_BAD_REQUEST.description}`;
      badRequest.content = { ...badRequest.content, "text/html": PLATFORM_BAD_REQUEST.content };
    }
    responses["431"] = PLATFORM_HEADERS_TOO_LARGE;
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: describe(route),
      tags: route.tags,
      security: keyed ? [{ [bearer.name]: [] }] : [],
      // Machine-readable twin of the description's rule, for tools (and the property-based test).
      "x-unknown-query-parameters": closedQuery(route.query) ? "refused" : "ignored",
      request: {
        query: route.query,
        params: route.params,
        ...(!route.public && route.idempotency ? { headers: idempotencyKeyHeader } : {}),
        ...(route.body
          ? {
              body: {
                required: true,
                content: Object.fromEntries(
                  bodyTypes.map((type) => [
                    type,
                    { schema: route.body as z.ZodType, example: route.bodyExample },
                  ]),
                ),
              },
            }
          : {}),
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
