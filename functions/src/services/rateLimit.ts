import type { DocumentSnapshot } from "firebase-admin/firestore";
import type { UsageState } from "../repos/apiKeyUsage";
import { UsageCommitter, type CountedEntry, type CountRule } from "../repos/usageCommit";
import { admittedByShard, refusedByAll, shardCount, shardLimits } from "./rateLimitShards";
import { decideMany, type Limits, type RateLimitDecision } from "./rateWindows";

/**
 * The limiter's rule for a key's limits: the window arithmetic (rateWindows.ts) over one
 * counter, or over the shards a high limit needs (rateLimitShards.ts).
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
 * Admits or refuses one request of the key within its limits (repos/usageCommit commits the
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
