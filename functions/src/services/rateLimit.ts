/**
 * Fixed-window rate limiting, pure arithmetic (the transaction lives in repos/apiKeyUsage).
 *
 * Window semantics (documented in the README and OpenAPI document):
 * - "minute" is the UTC clock minute (hh:mm:00 to hh:mm:59.999), "day" the UTC calendar day.
 * - A request counts against both windows only when it is admitted; refused requests
 *   (429) do not consume quota, so a client that retries too early does not starve itself.
 * - `Retry-After` is the whole number of seconds (at least 1) until every exhausted window
 *   has rolled over.
 */
export interface Limits {
  perMinute: number;
  perDay: number;
}

export interface UsageState {
  minuteWindow: number;
  minuteCount: number;
  dayWindow: number;
  dayCount: number;
}

export interface WindowStatus {
  name: "minute" | "day";
  limit: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The state to store when allowed; unchanged otherwise. */
  next: UsageState;
  windows: [WindowStatus, WindowStatus];
  retryAfterSeconds: number;
  /** The window that refused the request (the day wins when both are exhausted). */
  limitedBy: "minute" | "day" | null;
  /** First admitted request of a new minute: the moment to refresh the key's `lastUsedAt`. */
  firstInMinute: boolean;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export function decide(stored: UsageState | undefined, nowMs: number, limits: Limits): RateLimitDecision {
  const minuteWindow = Math.floor(nowMs / MINUTE_MS);
  const dayWindow = Math.floor(nowMs / DAY_MS);
  const minuteUsed = stored?.minuteWindow === minuteWindow ? stored.minuteCount : 0;
  const dayUsed = stored?.dayWindow === dayWindow ? stored.dayCount : 0;
  const allowed = minuteUsed < limits.perMinute && dayUsed < limits.perDay;
  const minuteCount = minuteUsed + (allowed ? 1 : 0);
  const dayCount = dayUsed + (allowed ? 1 : 0);

  const secondsUntil = (endMs: number) => Math.max(1, Math.ceil((endMs - nowMs) / 1000));
  const minute: WindowStatus = {
    name: "minute",
    limit: limits.perMinute,
    windowSeconds: 60,
    remaining: Math.max(0, limits.perMinute - minuteCount),
    resetSeconds: secondsUntil((minuteWindow + 1) * MINUTE_MS),
  };
  const day: WindowStatus = {
    name: "day",
    limit: limits.perDay,
    windowSeconds: 86_400,
    remaining: Math.max(0, limits.perDay - dayCount),
    resetSeconds: secondsUntil((dayWindow + 1) * DAY_MS),
  };
  const exhausted = [minute, day].filter((w, i) => (i === 0 ? minuteUsed : dayUsed) >= w.limit);
  return {
    allowed,
    next: { minuteWindow, minuteCount, dayWindow, dayCount },
    windows: [minute, day],
    retryAfterSeconds: allowed ? 0 : Math.max(...exhausted.map((w) => w.resetSeconds)),
    limitedBy: allowed ? null : dayUsed >= limits.perDay ? "day" : "minute",
    firstInMinute: allowed && minuteUsed === 0,
  };
}

/** Decisions for `count` requests arriving together, in order, each seeing the ones before it. */
export function decideMany(stored: UsageState | undefined, nowMs: number, limits: Limits, count: number): RateLimitDecision[] {
  const decisions: RateLimitDecision[] = [];
  let state = stored;
  for (let i = 0; i < count; i++) {
    const decision = decide(state, nowMs, limits);
    decisions.push(decision);
    if (decision.allowed) state = decision.next;
  }
  return decisions;
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

/** Per-field override: the key's value wins over the company's, which wins over the default. */
export function effectiveLimits(
  defaults: Limits,
  company: Partial<Limits> | undefined,
  key: Partial<Limits> | undefined,
): Limits {
  return {
    perMinute: key?.perMinute ?? company?.perMinute ?? defaults.perMinute,
    perDay: key?.perDay ?? company?.perDay ?? defaults.perDay,
  };
}
