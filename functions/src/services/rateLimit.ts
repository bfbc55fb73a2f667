import type { DocumentSnapshot } from "firebase-admin/firestore";
import { DAY_MS, MINUTE_MS } from "../lib/dates";
import type { Limits, UsageState } from "../repos/apiKeyUsage";
import type { CompanyRateLimits, LimitScope } from "../repos/companies";
import { UsageCommitter, type CountedEntry, type CountRule } from "../repos/usageShards";

export type { Limits } from "../repos/apiKeyUsage";

/**
 * The rate limit, in sections: the window arithmetic, the sharded counter's arithmetic, which
 * limits apply to a key, and the rule the counter commits (repos/usageShards). Fixed windows (UTC
 * clock minute, UTC day): the arithmetic here, the compare-and-swap in repos/apiKeyUsage. Only
 * admitted requests count, so a client retrying too early does not starve itself
 * (docs/api-behaviour.md, "Rate limits").
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

/**
 * The arithmetic of the sharded counter (docs/firestore-data.md, `apiKeyUsage` shards; the
 * storage is repos/usageShards): how many shards a key's limits need, each shard's slice, and
 * the decision a request is answered with.
 */

/** A key allowed at most this many requests a minute keeps its one counter document. */
export const SHARD_SLICE = 60;
export const MAX_SHARDS = 32;

export const shardCount = (limits: Limits): number =>
  Math.min(MAX_SHARDS, Math.max(1, Math.ceil(limits.perMinute / SHARD_SLICE)));

/**
 * Shard `i`'s slice of `total` over `shards`: the slices sum to `total`, remainders to the first.
 */
export const sliceOf = (total: number, shards: number, i: number): number =>
  Math.floor(total / shards) + (i < total % shards ? 1 : 0);

export const shardLimits = (limits: Limits, shards: number, i: number): Limits => ({
  perMinute: sliceOf(limits.perMinute, shards, i),
  perDay: sliceOf(limits.perDay, shards, i),
});

const limitOf = (limits: Limits, w: WindowStatus) =>
  w.name === "minute" ? limits.perMinute : limits.perDay;

/**
 * An admitted request's decision, told in the key's limits: `remaining` is estimated from the
 * one shard that admitted it (its remaining share scaled to the whole limit), not summed.
 */
export function admittedByShard(d: RateLimitDecision, limits: Limits): RateLimitDecision {
  const windows = d.windows.map((w): WindowStatus => {
    const limit = limitOf(limits, w);
    const remaining = w.limit > 0 ? Math.floor((w.remaining * limit) / w.limit) : 0;
    return { ...w, limit, remaining: Math.min(limit, remaining) };
  }) as [WindowStatus, WindowStatus];
  return { ...d, windows };
}

/**
 * A request every shard refused: it may retry when the first shard reopens (the least of their
 * waits); the day refuses it only when every shard's day slice is used up, else the minute.
 * The refusing window shows `remaining` 0; the other the sum of the shards' remainders.
 */
export function refusedByAll(refusals: RateLimitDecision[], limits: Limits): RateLimitDecision {
  const retryAfterSeconds = Math.min(...refusals.map((r) => r.retryAfterSeconds));
  const limitedBy = refusals.every((r) => r.limitedBy === "day") ? "day" : "minute";
  const windows = refusals[0].windows.map((w, k): WindowStatus => {
    const limit = limitOf(limits, w);
    if (w.name === limitedBy) return { ...w, limit, remaining: 0, resetSeconds: retryAfterSeconds };
    const left = refusals.reduce((sum, r) => sum + r.windows[k].remaining, 0);
    return { ...w, limit, remaining: Math.min(limit, left) };
  }) as [WindowStatus, WindowStatus];
  return { ...refusals[0], allowed: false, windows, retryAfterSeconds, limitedBy };
}

/**
 * The limiter's rule for a key's limits: the window arithmetic above over one counter, or over
 * the shards a high limit needs.
 */
function ruleFor(limits: Limits): CountRule<RateLimitDecision> {
  const shards = shardCount(limits);
  return {
    shards,
    decide: (stored: UsageState | undefined, nowMs: number, n: number, i: number) =>
      decideMany(stored, nowMs, shards === 1 ? limits : shardLimits(limits, shards, i), n),
    admitted: (decision) => admittedByShard(decision, limits),
    refused: (refusals) => refusedByAll(refusals, limits),
  };
}

const committer = new UsageCommitter<RateLimitDecision>();

/**
 * Admits or refuses one request of the key within its limits (repos/usageShards commits the
 * count, with the request's audit entry when given, and throws `UsageContentionError` when the
 * counter stays contended).
 */
export function consume(
  keyHash: string,
  limits: Limits,
  counter?: DocumentSnapshot,
  entry?: CountedEntry,
): Promise<RateLimitDecision> {
  return committer.count(keyHash, ruleFor(limits), counter, entry);
}

/** Where an effective limit comes from (shown in the console's key listing). */
export type LimitSource = "key" | `company.${LimitScope}` | "company" | "default";

export interface LimitsWithSource extends Limits {
  source: { perMinute: LimitSource; perDay: LimitSource };
}

/** The scope a key's limits are arranged for: `provisioning` when it may provision, else `read`. */
export const limitScopeOf = (scopes: readonly string[]): LimitScope =>
  scopes.includes("provisioning") ? "provisioning" : "read";

/**
 * Per-field override: the key's value wins over the company's for the key's scope, which wins
 * over the company-wide one, which wins over the default (docs/firestore-data.md, `rateLimits`).
 */
export function effectiveLimits(
  defaults: Limits,
  company: CompanyRateLimits | undefined,
  key: Partial<Limits> | undefined,
  scope: LimitScope,
): LimitsWithSource {
  const pick = (field: keyof Limits): [number, LimitSource] => {
    const levels: Array<[number | undefined, LimitSource]> = [
      [key?.[field], "key"],
      [company?.[scope]?.[field], `company.${scope}`],
      [company?.[field], "company"],
    ];
    const found = levels.find(([value]) => value !== undefined);
    return found ? [found[0]!, found[1]] : [defaults[field], "default"];
  };
  const [perMinute, minuteSource] = pick("perMinute");
  const [perDay, daySource] = pick("perDay");
  return { perMinute, perDay, source: { perMinute: minuteSource, perDay: daySource } };
}
