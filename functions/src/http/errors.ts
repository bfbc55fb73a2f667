import { isObject } from "../lib/isObject";
const ASK_ADMIN =
  "Ask the company's admin (access, plan) or the service's operator; retrying won't help.";

/** One code of the closed list: its HTTP status, and the texts of the error catalogue. */
interface ErrorEntry {
  status: number;
  /** When the API answers it (the OpenAPI documents' description of the response). */
  when: string;
  /** What the client should do about it. */
  todo: string;
  /** The catalogue's texts where one API's answer differs (the read-only findings API, SCIM). */
  per?: Partial<Record<"findings" | "scim", { when: string; todo: string }>>;
}

/**
 * The closed list of error codes both APIs answer with. Adapters and the HTTP kernel throw
 * `ApiError`; services throw errors of their own, which the adapter (or the kernel, for access)
 * maps here. The error handler alone renders the envelope. `docs/errors.md` is generated from
 * this table (`npm run docs:errors`), so a code cannot be added without saying when and what to do.
 */
export const ERRORS = {
  invalid_request: {
    status: 400,
    when:
      "A parameter or the body is malformed, or an unknown or repeated query parameter was " +
      "sent; the message names it. Also a page or delta token that is tampered with or belongs " +
      "to another query, or a page token made with a retired secret.",
    todo:
      "Fix the request; do not retry it unchanged. For a token: start the listing again " +
      "without `page_token`.",
  },
  unauthorized: {
    status: 401,
    when:
      "The API key is missing, malformed, unknown, revoked, expired after a roll, or a key " +
      "of the other API. Carries `WWW-Authenticate: Bearer`.",
    todo: "Check the key; ask the company's admin for a new one. Do not retry with the same key.",
  },
  forbidden: {
    status: 403,
    when:
      "API access is off for the company, the key's vessel is gone or moved, the company is " +
      "not on the plan this API needs, or the change is not allowed (provisioning off, the " +
      "company's only active owner); the message says which.",
    todo: ASK_ADMIN,
    per: {
      findings: {
        when:
          "API access is off for the company, the key's vessel is gone or moved, or the " +
          "company is not on the plan this API needs; the message says which.",
        todo: ASK_ADMIN,
      },
      scim: {
        when:
          "API access is off for the company, the company is not on the plan this API needs, " +
          "or the change is not allowed (provisioning off, the company's only active owner); " +
          "the `detail` says which.",
        todo: ASK_ADMIN,
      },
    },
  },
  insufficient_scope: {
    status: 403,
    when: "The key lacks the scope this endpoint needs (`provisioning` for writes and users).",
    todo: "Use a key created with that scope.",
  },
  not_found: {
    status: 404,
    when: "Unknown endpoint, or the resource does not exist for this key.",
    todo: "Check the path and the id; a removed resource stays 404.",
  },
  method_not_allowed: {
    status: 405,
    when: "The path exists but not with this method; the `Allow` header lists the methods.",
    todo: "Use one of the methods in `Allow`.",
  },
  conflict: {
    status: 409,
    when:
      "The request conflicts with existing data: a user with this e-mail address exists (in " +
      "any company), or the company holds as many deactivated users as seats.",
    todo: "Look the existing record up and update it instead; do not retry unchanged.",
  },
  "seat-capacity-exhausted": {
    status: 409,
    when:
      "`/v1/users`: no free seat; nothing was created. The body also carries " +
      "`seat_capacity` and `seats_used`.",
    todo: "Free a seat (deactivate or remove a user) or have seats added in the app, then retry.",
  },
  idempotency_key_in_use: {
    status: 409,
    when:
      "A request with this `Idempotency-Key` is still in progress. Carries `Retry-After` " +
      "(seconds).",
    todo: "Retry after `Retry-After` seconds with the same key to get the first request's answer.",
  },
  resync_required: {
    status: 410,
    when:
      "The `delta_token` is older than the change records' retention (30 days), or was " +
      "signed with a page-token secret since retired.",
    todo: "Start a full copy again: call the delta endpoint without `delta_token`.",
  },
  payload_too_large: {
    status: 413,
    when: "The request body exceeds 64 KiB, whatever its media type.",
    todo: "Send a smaller body (split the work into several requests).",
  },
  unsupported_media_type: {
    status: 415,
    when:
      "The request body is not JSON, declares a charset other than UTF-8, or is compressed " +
      "(`Content-Encoding`). Behind the production load balancer a compressed body gets its " +
      "403 instead.",
    todo: "Send the body uncompressed, as UTF-8 JSON with `Content-Type: application/json`.",
    per: {
      scim: {
        when:
          "The request body is not JSON, declares a charset other than UTF-8, or is " +
          "compressed.",
        todo:
          "Send the body uncompressed, as UTF-8 JSON with " +
          "`Content-Type: application/scim+json`.",
      },
    },
  },
  idempotency_key_reused: {
    status: 422,
    when:
      "This `Idempotency-Key` was first sent with another request (method, path or body); " +
      "nothing was run.",
    todo: "Use a new key for a new request; reuse a key only to retry the same request.",
  },
  rate_limited: {
    status: 429,
    when:
      "The key's rate limit or daily quota is exceeded, or too many failed authentications " +
      "came from the caller's address. Carries `Retry-After` (seconds).",
    todo:
      "Wait `Retry-After` seconds, then retry; refused requests do not count against the " +
      "quota. For lasting needs ask the operator for higher limits.",
  },
  seats_unavailable: {
    status: 429,
    when:
      "SCIM only: no free seat now (the company's seat capacity is used up); nothing was " +
      "created or changed. Carries `Retry-After`. Identity providers retry a 429, where a " +
      '409 reads as "already exists".',
    todo: "Free a seat or have seats added in the app; the provider's retry then succeeds.",
  },
  internal: {
    status: 500,
    when: "A server-side failure, never with internals; the request id is in the body.",
    todo:
      "Retry with exponential backoff: a read is safe to repeat; send a write with an " +
      "`Idempotency-Key` and retry it with the same key to get the first try's answer. " +
      "Quote `request_id` to support if it persists.",
    per: {
      findings: {
        when: "A server-side failure, never with internals; the request id is in the body.",
        todo:
          "Retry with exponential backoff: every request of this API is a read, safe to repeat. " +
          "Quote `request_id` to support if it persists.",
      },
      scim: {
        when: "A server-side failure, never with internals.",
        todo:
          "Nothing: identity providers retry a 5xx with backoff. Quote the `X-Request-Id` " +
          "header to support if it persists.",
      },
    },
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

export const errorCodes = () => Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** A refused change of a protected user, audited with the request (http/record.ts). */
export interface RefusedChangeNote {
  action: string;
  uid: string;
}

export class ApiError extends Error {
  readonly status: number;
  refusedChange?: RefusedChangeNote;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. `Retry-After`, `Allow`, `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
    /** Extra members of the error object, e.g. `seat_capacity` and `seats_used` of a 409. */
    readonly details: Record<string, number> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERRORS[code].status;
  }
}

export const invalidRequest = (message: string) => new ApiError("invalid_request", message);

/** A body that is JSON but not the object the operation takes (`[]`, `"x"`, `1`, `null`). */
export class NotAnObjectError extends ApiError {
  constructor(message: string) {
    super("invalid_request", message);
  }
}

/** A part of the request its schema refuses (a body that is no object, of its own kind). */
export const invalidPart = (location: string, value: unknown, message: string) =>
  location === "body" && value !== undefined && !isObject(value)
    ? new NotAnObjectError(message)
    : invalidRequest(message);
export const notFound = (message = "Not found.") => new ApiError("not_found", message);

export function unauthorized(message: string): ApiError {
  return new ApiError("unauthorized", message, { "WWW-Authenticate": 'Bearer realm="api"' });
}

export const forbidden = (message: string) => new ApiError("forbidden", message);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id: string } & Record<string, unknown>;
}
