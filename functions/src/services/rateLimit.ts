import type { DocumentSnapshot, WriteBatch } from "firebase-admin/firestore";
import { Coalescer } from "../lib/coalesce";
import { DAY_MS, MINUTE_MS } from "../lib/dates";
import {
  consumeMany,
  UsageContentionError,
  type Limits,
  type UsageState,
} from "../repos/apiKeyUsage";
import { stageAuditEntry, type AuditEntry } from "../repos/auditLogs";
import type { CompanyRateLimits, LimitScope } from "../repos/storedFields";
import { consumeSharded } from "../repos/usageShards";
import { admittedByShard, refusedByAll, shardCount, shardLimits } from "./rateLimitShards";

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

/** One fixed window at `nowMs`: its index, what was used in it, and its status after this request. */
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

/** An admitted request's audit entry, committed in the batch that counts it. */
export interface CountedEntry {
  companyId: string;
  entry: AuditEntry;
  /** The entry's document id (the request's id). */
  id: string;
}

interface Consumption {
  limits: Limits;
  counter?: DocumentSnapshot;
  entry?: CountedEntry;
}

/** Firestore takes 500 writes a batch: the counter, `lastUsedAt` and one entry per request. */
const MAX_BATCH = 400;

// Group commit per key inside this instance: concurrent requests of one key share one
// compare-and-swap instead of contending with each other. Each request reads its limits fresh;
// a batch applies the latest of them and starts from the latest counter read.
const coalescer = new Coalescer<Consumption, RateLimitDecision | UsageContentionError>(
  async (keyHash, args) => {
    const last = args[args.length - 1];
    const limits = last.limits;
    const also = (batch: WriteBatch, i: number) => {
      const counted = args[i].entry;
      if (counted) stageAuditEntry(batch, counted.companyId, counted.entry, counted.id);
    };
    const shards = shardCount(limits);
    if (shards === 1) {
      const decideBatch = (stored: UsageState | undefined, nowMs: number, count: number) =>
        decideMany(stored, nowMs, limits, count);
      return consumeMany(keyHash, args.length, decideBatch, last.counter, also);
    }
    const decideShard = (stored: UsageState | undefined, nowMs: number, n: number, i: number) =>
      decideMany(stored, nowMs, shardLimits(limits, shards, i), n);
    const { decisions, refusals, contended } = await consumeSharded(
      keyHash,
      shards,
      args.length,
      decideShard,
      last.counter,
      also,
    );
    return decisions.map((d) =>
      d
        ? admittedByShard(d, limits)
        : contended
          ? new UsageContentionError()
          : refusedByAll(refusals, limits),
    );
  },
  MAX_BATCH,
);

/**
 * Admits or refuses one request of the key (see repos/apiKeyUsage for the guarantees), starting
 * from `counter` when the caller has read it. With an `entry`, the request's audit entry commits
 * in the same batch as its count, or not at all.
 */
export async function consume(
  keyHash: string,
  limits: Limits,
  counter?: DocumentSnapshot,
  entry?: CountedEntry,
): Promise<RateLimitDecision> {
  const decision = await coalescer.submit(keyHash, { limits, counter, entry });
  if (decision instanceof UsageContentionError) throw decision;
  return decision;
}
