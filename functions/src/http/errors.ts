/**
 * The closed list of error codes both APIs answer with, and the HTTP status of each.
 * Adapters and the HTTP kernel throw `ApiError`; services throw errors of their own, which the
 * adapter (or the kernel, for access) maps here. The error handler alone renders the envelope.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  "seat-capacity-exhausted": 409,
  /** `Idempotency-Key`: the first request under the key is still running. */
  idempotency_key_in_use: 409,
  resync_required: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** `Idempotency-Key`: the key was first sent with another request. */
  idempotency_key_reused: 422,
  rate_limited: 429,
  /**
   * SCIM's answer to "no free seat now": identity providers retry a 429 after Retry-After
   * (docs/api-behaviour.md).
   */
  seats_unavailable: 429,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
    this.status = ERROR_STATUS[code];
  }
}

export const invalidRequest = (message: string) => new ApiError("invalid_request", message);
export const notFound = (message = "Not found.") => new ApiError("not_found", message);

export function unauthorized(message: string): ApiError {
  return new ApiError("unauthorized", message, { "WWW-Authenticate": 'Bearer realm="api"' });
}

export const forbidden = (message: string) => new ApiError("forbidden", message);

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id: string } & Record<string, unknown>;
}
