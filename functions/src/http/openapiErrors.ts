import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import type { ErrorDialect } from "./errorHandler";
import { ApiError, ERROR_STATUS, type ErrorBody, type ErrorCode } from "./errors";
import { z } from "./zod";

/** The error responses of the OpenAPI documents: the API's own (envelope or dialect) ' +
  'and the platform's. */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string().openapi({ description: "Human-readable explanation; do not parse it." }),
      request_id: z
        .string()
        .openapi({ description: "Same value as the `X-Request-Id` response header." }),
      seat_capacity: z
        .number()
        .int()
        .optional()
        .openapi({ description: "`seat-capacity-exhausted` only: the seats the company has." }),
      seats_used: z
        .number()
        .int()
        .optional()
        .openapi({ description: "`seat-capacity-exhausted` only: the seats in use." }),
    }),
  })
  .openapi("Error");

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request: "A parameter or the body is malformed; the message names it.",
  unauthorized: "The API key is missing, malformed, unknown or revoked.",
  forbidden: "API access is off for the company, or the key may not do this.",
  insufficient_scope:
    "The key lacks the scope this endpoint needs (e.g. `provisioning`); create a key " +
    "with it in the app.",
  not_found: "Unknown endpoint, or the resource does not exist for this key.",
  method_not_allowed: "The path exists but not with this method; see the `Allow` header.",
  conflict:
    "The request conflicts with existing data, e.g. a user with this e-mail address " +
    "exists (in any company).",
  "seat-capacity-exhausted":
    "Provisioning would exceed the company's seat capacity; the body also carries " +
    "`seat_capacity` and `seats_used`. Nothing was created.",
  resync_required:
    "The `delta_token` is older than the change records' retention (30 days), or was " +
    "signed with a page-token secret since retired: start again with a full copy (the " +
    "delta endpoint without `delta_token`).",
  idempotency_key_in_use:
    "A request with this `Idempotency-Key` is still in progress; retry after `Retry-After` " +
    "seconds to get its answer.",
  idempotency_key_reused:
    "This `Idempotency-Key` was first sent with another request (method, path or body); " +
    "nothing was run. Use a new key for a new request.",
  payload_too_large:
    "The request body exceeds 64 KiB, whatever its media type (checked on the bytes received).",
  unsupported_media_type:
    "The request body is not JSON, or is compressed (`Content-Encoding`: send bodies " +
    "uncompressed).",
  rate_limited: "Rate limit or daily quota exceeded; retry after `Retry-After` seconds.",
  seats_unavailable:
    "SCIM: no free seat now (the company's seat capacity is used up); nothing was " +
    "created or changed. Retry after `Retry-After` seconds, once a seat is freed or added.",
  internal: "Server-side failure; retry with exponential backoff.",
};

/** A message of each code as the API words it, for the examples. */
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  invalid_request: 'Invalid query parameter "limit": must be an integer from 1 to 500.',
  unauthorized: "Missing API key: send the header `Authorization: Bearer <API_KEY>`.",
  forbidden: "API access is turned off for this company.",
  insufficient_scope:
    'This key lacks the "provisioning" scope this endpoint needs; use a key created with it.',
  not_found: "Not found.",
  method_not_allowed: "PUT is not supported on this path; use GET, HEAD.",
  conflict: "A user with this e-mail address already exists.",
  "seat-capacity-exhausted": "No free seat: the company uses 25 of its 25 seats.",
  seats_unavailable:
    "Seat capacity exhausted: all 25 seats of the company are taken (25 in use). " +
    "Deactivate a user or add seats in the app first.",
  resync_required:
    "This delta_token is older than 30 days; start a full copy again without delta_token.",
  payload_too_large: "The request body is larger than 64 KiB.",
  idempotency_key_in_use:
    "A request with this Idempotency-Key is still in progress; retry after 12 s.",
  idempotency_key_reused:
    "This Idempotency-Key was sent with another request (method, path or body); use a new " +
    "key for a new request.",
  unsupported_media_type: "Send the request body as JSON with `Content-Type: application/json`.",
  rate_limited: "Rate limit exceeded: 60 requests per minute; retry after 42 s.",
  internal: "An internal error occurred; retry with exponential backoff.",
};
const EXAMPLE_REQUEST_ID = "req_6f1c2a9be04d4d0f9a3c81e5b7d20c44";

const RATE_HEADERS = {
  RateLimit: {
    description:
      'The closer limit, e.g. `"minute";r=59;t=42` (draft-ietf-httpapi-ratelimit-headers-11).',
    schema: { type: "string" as const },
  },
  "RateLimit-Policy": {
    description: 'Both windows, e.g. `"minute";q=60;w=60, "day";q=10000;w=86400`.',
    schema: { type: "string" as const },
  },
};
const REQUEST_ID_HEADER = {
  "X-Request-Id": {
    description:
      "The request's id, generated by the API for every request (`req_` + 32 hex " +
      "digits); quote it to support.",
    schema: { type: "string" as const },
  },
  "X-Client-Request-Id": {
    description:
      "The caller's own `X-Request-Id`, echoed when it was 1 to 128 of `A-Za-z0-9._:-` " +
      "(kept in the audit entry too).",
    schema: { type: "string" as const },
  },
};
export const successHeaders = (keyed: boolean) =>
  keyed ? { ...REQUEST_ID_HEADER, ...RATE_HEADERS } : REQUEST_ID_HEADER;

/** The body the API answers for a code: the envelope, or the path's dialect (SCIM). */
function exampleBody(code: ErrorCode, dialect: ErrorDialect | undefined): unknown {
  const error = new ApiError(
    code,
    EXAMPLE_MESSAGES[code],
    {},
    code === "seat-capacity-exhausted" ? { seat_capacity: 25, seats_used: 25 } : {},
  );
  if (dialect) return dialect.render(error, undefined);
  return {
    error: { code, message: error.message, request_id: EXAMPLE_REQUEST_ID, ...error.details },
  } satisfies ErrorBody;
}

/**
 * The response of one HTTP status, for every code of the operation that answers with it, with an
 * example of each.
 */
export function errorResponse(
  codes: ErrorCode[],
  keyed: boolean,
  dialect: ErrorDialect | undefined,
): ResponseConfig {
  const headers: ResponseConfig["headers"] = { ...REQUEST_ID_HEADER };
  // Refused before the limiter (401, 403 forbidden) carry no RateLimit headers; the rest do.
  if (keyed && codes.some((code) => code !== "unauthorized" && code !== "forbidden"))
    Object.assign(headers, RATE_HEADERS);
  if (
    codes.includes("rate_limited") ||
    codes.includes("seats_unavailable") ||
    codes.includes("idempotency_key_in_use")
  )
    headers["Retry-After"] = {
      description: "Seconds until the exhausted window frees up (for a seat: when to try again).",
      schema: { type: "integer" },
    };
  if (codes.includes("method_not_allowed"))
    headers.Allow = { description: "The methods this path supports.", schema: { type: "string" } };
  if (codes.includes("unauthorized"))
    headers["WWW-Authenticate"] = {
      description: "`Bearer` challenge.",
      schema: { type: "string" },
    };
  const description =
    codes.length === 1
      ? ERROR_DESCRIPTIONS[codes[0]]
      : codes.map((code) => `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`).join(" ");
  const examples = Object.fromEntries(
    codes.map((code) => [code, { summary: code, value: exampleBody(code, dialect) }]),
  );
  const schema = dialect ? dialect.schema : errorSchema;
  return {
    description,
    headers,
    content: { [dialect?.contentType ?? "application/json"]: { schema, examples } },
  };
}

/**
 * The platform's own answer to a malformed `application/json` body: the Cloud Functions runtime
 * parses that media type before the API runs and answers a parse failure itself, as HTML.
 */
export const PLATFORM_BAD_REQUEST = {
  description:
    "A malformed `application/json` body is refused by the Cloud Functions platform " +
    "before the API runs: `400` with an HTML page " +
    "(`text/html`, body `Bad Request`), no envelope and no `X-Request-Id`. Other media " +
    "types (`application/scim+json`) reach the API and get its own error.",
  content: { schema: z.string(), example: "Bad Request" },
};

/**
 * The runtime's HTTP server (Node.js, default `maxHeaderSize` of 16 KiB) answers an oversized
 * request line or header block itself, before Express: `431`, no body, no headers of ours
 * (checked against the Functions emulator by the smoke test).
 */
export const PLATFORM_HEADERS_TOO_LARGE: ResponseConfig = {
  description:
    "The request line (the URL with its query) and the headers together exceed 16 KiB: " +
    "the runtime's HTTP server (Node.js) answers " +
    "`431 Request Header Fields Too Large` before the API runs, with an empty body (no " +
    "`Content-Type`, no envelope, no `X-Request-Id`) " +
    "and `Connection: close`. A `page_token` counts towards it, but stays far below: the " +
    "API issues and accepts tokens of at most 4,096 characters. " +
    "Google's front end may refuse still larger requests earlier, with its own status and page.",
};
