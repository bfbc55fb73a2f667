import type { NextFunction, Request, Response } from "express";
import { UsageContentionError } from "../repos/apiKeyUsage";
import { admitProvisionally, consume, policyHeader, remainingHeader, type RateLimitDecision } from "../services/rateLimit";
import { contextOf, principalOf } from "./context";
import { ApiError } from "./errors";

/**
 * Methods whose handlers change nothing a caller could see: their count can wait until the
 * answer is known. (SCIM's `GET /Users` may move removed users aside first, an idempotent
 * repair of the roster's order that any later request would make too.)
 */
const READ_ONLY = new Set(["GET", "HEAD"]);

/** Sets the rate-limit headers of a decision; the 429 to answer when it refuses. */
export function applyDecision(res: Response, decision: RateLimitDecision): ApiError | null {
  res.set("RateLimit-Policy", policyHeader(decision));
  res.set("RateLimit", remainingHeader(decision));
  if (decision.allowed) return null;
  const what = decision.limitedBy === "day" ? "daily quota" : "requests per minute";
  return new ApiError("rate_limited", `Rate limit exceeded (${what}); retry after ${decision.retryAfterSeconds} s.`, {
    "Retry-After": String(decision.retryAfterSeconds),
  });
}

/**
 * Extreme concurrency on one key from many instances: ask the caller to slow down rather
 * than admit a request we could not count.
 */
export function contentionError(err: unknown): unknown {
  return err instanceof UsageContentionError ? new ApiError("rate_limited", "Too many concurrent requests with this key; retry after 1 s.", { "Retry-After": "1" }) : err;
}

/**
 * Admits the request against the key's minute and day windows; 429 with `Retry-After` otherwise.
 *
 * A read-only request is admitted on the counter read during authentication and counted after
 * its handler, in one batch with its audit entry (record.ts): one round trip less, and the
 * count and the entry can never disagree. If the count then finds the window full (requests
 * of the same key on other instances came first), the answer is that 429 instead of the data.
 * Reads this instance has admitted but not yet counted hold their places, so a burst runs no
 * more handlers than the window has room for. Any other request is counted here, before its
 * handler can change anything (its audit entry follows on its own).
 */
export async function rateLimit(req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    const principal = principalOf(res);
    const provisional = READ_ONLY.has(req.method) && principal.usage ? await admitProvisionally(principal.keyHash, principal.limits, principal.usage) : null;
    if (provisional?.allowed) contextOf(res).uncounted = true;
    const refused = applyDecision(res, provisional ?? (await consume(principal.keyHash, principal.limits, principal.usage)));
    next(refused ?? undefined);
  } catch (err) {
    next(contentionError(err));
  }
}
