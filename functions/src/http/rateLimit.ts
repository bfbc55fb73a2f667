import type { NextFunction, Request, Response } from "express";
import { UsageContentionError } from "../repos/apiKeyUsage";
import { consume, policyHeader, remainingHeader } from "../services/rateLimit";
import { principalOf } from "./context";
import { ApiError } from "./errors";

/** Admits the request against the key's minute and day windows; 429 with `Retry-After` otherwise. */
export async function rateLimit(_req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    const principal = principalOf(res);
    const decision = await consume(principal.keyHash, principal.limits, principal.usage);
    res.set("RateLimit-Policy", policyHeader(decision));
    res.set("RateLimit", remainingHeader(decision));
    if (!decision.allowed) {
      const what = decision.limitedBy === "day" ? "daily quota" : "requests per minute";
      throw new ApiError(
        "rate_limited",
        `Rate limit exceeded (${what}); retry after ${decision.retryAfterSeconds} s.`,
        { "Retry-After": String(decision.retryAfterSeconds) },
      );
    }
    next();
  } catch (err) {
    if (err instanceof UsageContentionError) {
      // Extreme concurrency on one key from many instances: ask the caller to slow down
      // rather than admit a request we could not count.
      next(new ApiError("rate_limited", "Too many concurrent requests with this key; retry after 1 s.", { "Retry-After": "1" }));
      return;
    }
    next(err);
  }
}
