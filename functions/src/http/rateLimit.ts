import type { NextFunction, Request, Response } from "express";
import { consume } from "../repos/apiKeyUsage";
import { policyHeader, remainingHeader } from "../services/rateLimit";
import { principalOf, contextOf } from "./context";
import { ApiError } from "./errors";

/** Admits the request against the key's minute and day windows; 429 with `Retry-After` otherwise. */
export async function rateLimit(_req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    const principal = principalOf(res);
    const decision = await consume(principal.keyHash, principal.limits);
    contextOf(res).rateLimit = decision;
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
    next(err);
  }
}
