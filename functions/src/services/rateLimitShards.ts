import type { Limits } from "../repos/apiKeyUsage";
import type { RateLimitDecision, WindowStatus } from "./rateWindows";

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
