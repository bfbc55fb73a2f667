import { DAY_MS, MINUTE_MS } from "../lib/dates";
import type { Limits, UsageState } from "../repos/apiKeyUsage";

export type { Limits } from "../repos/apiKeyUsage";

/**
 * Fixed-window rate limiting (UTC clock minute, UTC day): the arithmetic here, the
 * compare-and-swap in repos/apiKeyUsage. Only admitted requests count, so a client retrying too
 * early does not starve itself (docs/api-behaviour.md, "Rate limits").
 */
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

/**
 * One fixed window at `nowMs`: its index, what was used in it, and its status after this request.
 */
function windowAt(
  name: WindowStatus["name"],
  lengthMs: number,
  limit: number,
  storedWindow: number | undefined,
  storedCount: number | undefined,
  nowMs: number,
) {
  const index = Math.floor(nowMs / lengthMs);
  const used = storedWindow === index ? (storedCount ?? 0) : 0;
  const status = (admitted: boolean): WindowStatus => ({
    name,
    limit,
    windowSeconds: lengthMs / 1000,
    remaining: Math.max(0, limit - used - (admitted ? 1 : 0)),
    resetSeconds: Math.max(1, Math.ceil(((index + 1) * lengthMs - nowMs) / 1000)),
  });
  return { index, used, exhausted: used >= limit, status };
}

export function decide(
  stored: UsageState | undefined,
  nowMs: number,
  limits: Limits,
): RateLimitDecision {
  const minute = windowAt(
    "minute",
    MINUTE_MS,
    limits.perMinute,
    stored?.minuteWindow,
    stored?.minuteCount,
    nowMs,
  );
  const day = windowAt("day", DAY_MS, limits.perDay, stored?.dayWindow, stored?.dayCount, nowMs);
  const allowed = !minute.exhausted && !day.exhausted;
  const windows: [WindowStatus, WindowStatus] = [minute.status(allowed), day.status(allowed)];
  const add = allowed ? 1 : 0;
  return {
    allowed,
    next: {
      minuteWindow: minute.index,
      minuteCount: minute.used + add,
      dayWindow: day.index,
      dayCount: day.used + add,
    },
    windows,
    retryAfterSeconds: allowed
      ? 0
      : Math.max(
          ...windows.filter((_, i) => [minute, day][i].exhausted).map((w) => w.resetSeconds),
        ),
    limitedBy: allowed ? null : day.exhausted ? "day" : "minute",
    firstInMinute: allowed && minute.used === 0,
  };
}

/** Decisions for `count` requests arriving together, in order, each seeing the ones before it. */
export function decideMany(
  stored: UsageState | undefined,
  nowMs: number,
  limits: Limits,
  count: number,
): RateLimitDecision[] {
  const decisions: RateLimitDecision[] = [];
  let state = stored;
  for (let i = 0; i < count; i++) {
    const decision = decide(state, nowMs, limits);
    decisions.push(decision);
    if (decision.allowed) state = decision.next;
  }
  return decisions;
}
