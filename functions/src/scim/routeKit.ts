import type { Request } from "express";
import { publicBaseUrl } from "../http/context";
import type { ErrorCode } from "../http/errors";
import { z } from "../http/zod";

/**
 * What every SCIM resource and route shares. First the schemas this service provider implements
 * (RFC 7643): the URNs, the shape of an attribute's definition (the User's attributes are in
 * userSchema.ts, the Group's in groupWire.ts); the same definitions serve the `/Schemas` endpoint
 * and the reading of requests (which attribute a path names, its type, whether it may be
 * written). Then the routes' kit: tag, scope, media type, errors, addresses, list responses.
 */
export const URN = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  enterprise: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

type Mutability = "readOnly" | "readWrite" | "immutable" | "writeOnly";

export interface AttributeDef {
  name: string;
  type: "string" | "boolean" | "complex" | "dateTime" | "reference";
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: "always" | "never" | "default" | "request";
  uniqueness: "none" | "server" | "global";
  canonicalValues?: string[];
  /** For `reference` attributes (RFC 7643 §7): the resource types, `external` or `uri`. */
  referenceTypes?: string[];
  subAttributes?: AttributeDef[];
  /** Kept in the user's `scimProfile` and read back as sent (the app has no field for it). */
  keptAsSent?: true;
}

export function attr(
  name: string,
  type: AttributeDef["type"],
  description: string,
  more: Partial<AttributeDef> = {},
): AttributeDef {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...more,
  };
}

export const multiValueSubs = (valueDescription: string, types: string[]) => [
  attr("value", "string", valueDescription),
  attr("display", "string", "A human-readable name, for display only."),
  attr("type", "string", "A label for the value's function.", { canonicalValues: types }),
  attr(
    "primary",
    "boolean",
    "Whether this is the primary value (`true` or `false`; " +
      'the strings "True" and "False" are accepted too).',
  ),
];

/** A definition as `/Schemas` serves it: without this service's own marks. */
export function servedAttribute(def: AttributeDef): AttributeDef {
  const served = { ...def };
  delete served.keptAsSent;
  if (def.subAttributes) served.subAttributes = def.subAttributes.map(servedAttribute);
  return served;
}

/** Attributes every resource has and no request may set (RFC 7643 §3.1). */
export const COMMON_READ_ONLY = ["id", "meta", "schemas"];

export const SCIM_CONTENT_TYPE = "application/scim+json";

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

/** A user's path below the SCIM base: its resource's location, a group member's `$ref`. */
export const userPath = (id: string) => `/Users/${encodeURIComponent(id)}`;
export const userUrl = (req: Request, id: string) => scimUrl(req, userPath(id));
/** A group's path below the SCIM base: its resource's location and `Location` header. */
export const groupPath = (id: string) => `/Groups/${encodeURIComponent(id)}`;

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
 * booleans). The limits are enforced: a longer value is a 400. `nullable`: null is accepted as
 * "unassigned" (RFC 7644 §3.5.1), as providers send it for a value they clear.
 */
export const documented = (
  type: "string" | "boolean" | "object" | "array",
  description: string,
  limits: Record<string, unknown> = {},
  nullable = false,
) =>
  z
    .unknown()
    .optional()
    .openapi({ type: nullable ? [type, "null"] : type, description, ...limits });
