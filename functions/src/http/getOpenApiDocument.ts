import type { ApiDescription } from "./openapi";
import { defineRoute, type AnyRoute } from "./route";
import { jsonObject, z } from "./zod";

/** `GET /v1/openapi.json`: the document, built once by `document`. */
export function getOpenApiDocument(
  config: ApiDescription,
  document: () => Record<string, unknown>,
): AnyRoute {
  return defineRoute({
    method: "get",
    path: "/v1/openapi.json",
    operationId: "getOpenApiDocument",
    summary: `The OpenAPI ${config.openapi} description of this API (no key required)`,
    tags: ["Service"],
    public: true,
    query: z.object({}).strict(),
    success: {
      description: "The OpenAPI document.",
      schema: jsonObject(),
      example: {
        openapi: config.openapi,
        info: { title: config.title, version: config.version },
        servers: [{ url: "{base_url}" }],
        paths: {},
        components: {},
      },
    },
    errors: ["invalid_request"],
    handler: async () => document(),
  });
}
