import type { NextFunction, Request, Response } from "express";
import { requestFailed } from "../logs";
import { StaleCursorError } from "../repos/rangeQuery";
import { contextOf, pathOf, type RequestContext } from "./context";
import { ApiError, type ErrorBody, type ErrorCode } from "./errors";
import type { z } from "./zod";

/** body-parser's failures (and readBody's, in its style), by their `type`, as envelope errors. */
function fromBodyParser(err: { type?: string; status?: number }): ApiError | null {
  switch (err.type) {
    case "entity.parse.failed":
      return new ApiError("invalid_request", "The request body is not valid JSON.");
    case "entity.encoding.invalid":
      return new ApiError("invalid_request", "The request body is not valid UTF-8.");
    case "entity.too.large":
      return new ApiError("payload_too_large", "The request body is too large.");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ApiError(
        "unsupported_media_type",
        "The request body's encoding or charset is not supported.",
      );
    case "request.aborted":
    case "request.size.invalid":
    case "stream.encoding.set":
      return new ApiError("invalid_request", "The request body could not be read.");
    default:
      return null;
  }
}

function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  // The router's decoding of a path parameter (e.g. `%E0%A4%A`); the value is not echoed.
  if (err instanceof URIError)
    return new ApiError("invalid_request", "The request path contains malformed percent-encoding.");
  if (err instanceof StaleCursorError) {
    return new ApiError(
      "invalid_request",
      'Invalid query parameter "page_token": the row it resumes after no longer exists; ' +
        "restart without page_token.",
    );
  }
  if (err && typeof err === "object") return fromBodyParser(err);
  return null;
}

/**
 * Errors of a part of an API that speaks another protocol (SCIM), rendered in that protocol's
 * body instead of the envelope; status, headers, request id and audit stay the same.
 */
export interface ErrorDialect {
  /** Path prefix, e.g. `/scim/v2` (compared case-insensitively, as Express routes are). */
  prefix: string;
  contentType: string;
  /** The body's schema, for the OpenAPI document. */
  schema: z.ZodType;
  render(error: ApiError, original: unknown): unknown;
  /** A code's documented response, where the dialect's body says more than the envelope's text. */
  document?(code: ErrorCode): DialectResponse | undefined;
}

export interface DialectResponse {
  description: string;
  examples: Record<string, { summary: string; value: unknown }>;
}

export const dialectOf = (dialects: readonly ErrorDialect[], path: string) =>
  dialects.find(
    (d) =>
      path.toLowerCase() === d.prefix.toLowerCase() ||
      path.toLowerCase().startsWith(`${d.prefix.toLowerCase()}/`),
  );

/**
 * Any failure as the error to answer: an ApiError as it is, a body-parser or routing failure as
 * its 4xx, anything else a 500 `internal` whose details go to the log only.
 */
export function answerableError(err: unknown, req: Request, ctx: RequestContext): ApiError {
  const error = toApiError(err);
  if (error) return error;
  requestFailed(
    {
      api: ctx.api,
      requestId: ctx.requestId,
      clientRequestId: ctx.clientRequestId,
      method: req.method,
      path: pathOf(req),
    },
    err,
  );
  return new ApiError("internal", "An internal error occurred; retry with exponential backoff.");
}

/** The only place that renders errors: the envelope (or the path's dialect) with the request id. */
export function renderError(
  req: Request,
  res: Response,
  error: ApiError,
  dialects: readonly ErrorDialect[],
  original?: unknown,
): void {
  if (res.headersSent) {
    // A body cut short (a page failing mid-way): break the connection, so the caller sees an
    // incomplete response rather than a well-formed end of a truncated one.
    if (!res.writableEnded) res.destroy();
    return;
  }
  res.status(error.status).set(error.headers);
  const dialect = dialectOf(dialects, req.path);
  if (dialect) {
    res.type(dialect.contentType).send(JSON.stringify(dialect.render(error, original)));
    return;
  }
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      request_id: contextOf(res).requestId,
      ...error.details,
    },
  };
  res.json(body);
}

/**
 * Errors of what runs outside the keyed pipeline: public routes and the checks before
 * authentication.
 */
export function errorHandler(dialects: readonly ErrorDialect[] = []) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    renderError(req, res, answerableError(err, req, contextOf(res)), dialects, err);
  };
}
