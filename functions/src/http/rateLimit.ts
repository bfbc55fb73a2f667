import type { Response } from "express";
import type { DocumentSnapshot } from "firebase-admin/firestore";
import { UsageContentionError } from "../repos/apiKeyUsage";
import type { CountedEntry } from "../repos/usageCommit";
import { consume, type RateLimitDecision } from "../services/rateLimit";
import type { Principal } from "./context";
import { ApiError } from "./errors";
import { rememberRefusal } from "./refusalMemory";

/**
 * Counts the request against its key's minute and day windows before anything else runs, with
 * its audit entry in the same batch; 429 with `Retry-After` when a window is full. Across
 * instances the count is exact (repos/apiKeyUsage), so no handler runs for a request the
 * window refuses.
 */
export async function admit(
  res: Response,
  principal: Principal,
  counter: DocumentSnapshot,
  entry: CountedEntry,
): Promise<void> {
  let decision;
  try {
    decision = await consume(principal.keyHash, principal.limits, counter, entry);
  } catch (err) {
    // Extreme concurrency on one key from many instances: ask the caller to slow down.
    if (err instanceof UsageContentionError)
      throw new ApiError(
        "rate_limited",
        "Too many concurrent requests with this key; retry after 1 s.",
        { "Retry-After": "1" },
      );
    throw err;
  }
  res.set("RateLimit-Policy", policyHeader(decision));
  res.set("RateLimit", remainingHeader(decision));
  if (!decision.allowed) {
    const what = decision.limitedBy === "day" ? "daily quota" : "requests per minute";
    const error = new ApiError(
      "rate_limited",
      `Rate limit exceeded (${what}); retry after ${decision.retryAfterSeconds} s.`,
      {
        "Retry-After": String(decision.retryAfterSeconds),
        RateLimit: remainingHeader(decision),
        "RateLimit-Policy": policyHeader(decision),
      },
    );
    rememberRefusal(principal.keyHash, error, principal, decision.retryAfterSeconds * 1000);
    throw error;
  }
}

/** `RateLimit-Policy` of draft-ietf-httpapi-ratelimit-headers-11. */
export function policyHeader(decision: RateLimitDecision): string {
  return decision.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.windowSeconds}`).join(", ");
}

/**
 * `RateLimit` of the same draft, for the closer limit: the window with the fewest requests
 * left, and on a tie the one that resets first.
 */
export function remainingHeader(decision: RateLimitDecision): string {
  const [closer] = [...decision.windows].sort(
    (a, b) => a.remaining - b.remaining || a.resetSeconds - b.resetSeconds,
  );
  return `"${closer.name}";r=${closer.remaining};t=${closer.resetSeconds}`;
}
