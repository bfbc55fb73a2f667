import { publicBaseUrl } from "./context";
import type { ApiDescription } from "./openapi";
import { defineRoute, type AnyRoute } from "./route";
import { z } from "./zod";

const responseSchema = z
  .object({
    data: z.object({
      name: z.string(),
      api_version: z.literal("v1"),
      document_version: z.string(),
      openapi_version: z.string(),
      links: z.object({
        openapi: z
          .string()
          .openapi({ format: "uri", description: "Absolute address of the OpenAPI document." }),
        docs: z.string().openapi({
          format: "uri",
          description: "Absolute address of the human-readable reference.",
        }),
      }),
    }),
  })
  .openapi("ServiceMetadata");

/** `GET /v1`: the name and version of the API, and where its description is. */
export function getServiceMetadata(config: ApiDescription): AnyRoute {
  return defineRoute({
    method: "get",
    path: "/v1",
    operationId: "getServiceMetadata",
    summary: "Service metadata (no key required)",
    tags: ["Service"],
    public: true,
    query: z.object({}).strict(),
    success: {
      description: "Name and version of the service, and where its description is.",
      schema: responseSchema,
      example: {
        data: {
          name: config.title,
          api_version: "v1",
          document_version: config.version,
          openapi_version: config.openapi,
          links: {
            openapi: `${config.defaultBaseUrl}/v1/openapi.json`,
            docs: `${config.defaultBaseUrl}/v1/docs`,
          },
        },
      } satisfies z.infer<typeof responseSchema>,
    },
    errors: ["invalid_request"],
    handler: async ({ req }) => ({
      data: {
        name: config.title,
        api_version: "v1" as const,
        document_version: config.version,
        openapi_version: config.openapi,
        links: {
          openapi: `${publicBaseUrl(req)}/v1/openapi.json`,
          docs: `${publicBaseUrl(req)}/v1/docs`,
        },
      },
    }),
  });
}
