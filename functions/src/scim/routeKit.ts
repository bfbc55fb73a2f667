import type { Request } from "express";
import { publicBaseUrl } from "../http/context";
import type { ErrorCode } from "../http/errors";
import { z } from "../http/zod";
import { SCIM_CONTENT_TYPE, URN } from "./schema";

/** What every SCIM route shares: its tag, scope, media type, errors, and resource addresses. */
export const SCIM_BASE = "/scim/v2";
export const SCIM_ROUTE = { tags: ["SCIM 2.0"], scope: "provisioning" };
export const SCIM_ERRORS: ErrorCode[] = ["invalid_request", "not_found"];
export const SCIM_WRITE_ERRORS: ErrorCode[] = [
  ...SCIM_ERRORS,
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
];

export const scimSuccess = (
  description: string,
  schema: z.ZodType,
  extra: { status?: number; headers?: Record<string, string>; example?: unknown } = {},
) => ({
  description,
  schema,
  contentType: SCIM_CONTENT_TYPE,
  ...extra,
});

export const scimUrl = (req: Request, path: string) => `${publicBaseUrl(req)}${SCIM_BASE}${path}`;

/** The most resources one page holds (ServiceProviderConfig `filter.maxResults`). */
export const MAX_RESULTS = 200;

/**
 * A listing's window (RFC 7644 §3.4.2.4): `startIndex` below 1 counts as 1, `count` within 0 and
 * MAX_RESULTS.
 */
export function pageWindow(q: { startIndex?: number; count?: number }) {
  const startIndex = Math.max(1, q.startIndex ?? 1);
  const count = Math.min(MAX_RESULTS, Math.max(0, q.count ?? MAX_RESULTS));
  return {
    startIndex,
    count,
    page: <T>(all: T[]) => all.slice(startIndex - 1, startIndex - 1 + count),
  };
}

/** A ListResponse (RFC 7644 §3.4.2) of the given resources. */
export function listResponse<T>(resources: T[], totalResults = resources.length, startIndex = 1) {
  return {
    schemas: [URN.listResponse],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

export const listResponseSchema = (item: z.ZodType, name: string) =>
  z
    .object({
      schemas: z.array(z.literal(URN.listResponse)),
      totalResults: z.number().int().openapi({ description: "How many resources match, in all." }),
      startIndex: z
        .number()
        .int()
        .openapi({ description: "1-based position of the first resource of this page." }),
      itemsPerPage: z
        .number()
        .int()
        .openapi({ description: "How many resources this page holds." }),
      Resources: z.array(item),
    })
    .openapi(name);

/**
 * A request body field documented with its SCIM type and limits; validated by the SCIM core, not
 * here, and leniently as RFC 7643 asks (attribute names in any case, "True"/"False" strings for
 * booleans, values of another type ignored). The limits are enforced: a longer value is a 400.
 */
export const documented = (
  type: "string" | "boolean" | "object" | "array",
  description: string,
  limits: Record<string, unknown> = {},
) =>
  z
    .unknown()
    .optional()
    .openapi({ type, description, ...limits });
