import { DAY_MS } from "../lib/dates";
import type { Limits } from "../repos/apiKeyUsage";
import { hasExpired } from "../repos/apiKeys";
import { countKeyRequests, dayCounts } from "../repos/keyRequestCounts";
import type { StoredKey } from "../repos/keyWrites";
import { KeyAdminError, type Caller } from "./adminAccess";
import { listKeys } from "./keyAdmin";
import { shardCount } from "./rateLimit";

/** How many UTC days the console's usage chart covers, today included. */
export const USAGE_DAYS = 30;

const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Requests admitted today (UTC day, the daily quota's window) of each key that still works, by
 * prefix, as the quota counts them: the keys' rate-limit counters over the shards their limits
 * give them (rateLimitShards.ts), all read at once. Revoked and expired keys are left out (they
 * make no more requests).
 */
export async function requestsToday(
  keys: ReadonlyArray<{ doc: StoredKey; rateLimits: Limits }>,
  nowMs = Date.now(),
): Promise<Map<string, number>> {
  const live = keys.filter(({ doc }) => !doc.revokedAt && !hasExpired(doc.expiresAt, nowMs));
  const counts = await dayCounts(
    live.map(({ doc, rateLimits }) => ({ hash: doc.hash, shards: shardCount(rateLimits) })),
    Math.floor(nowMs / DAY_MS),
  );
  return new Map(live.map(({ doc }, i) => [doc.prefix, counts[i]]));
}

export interface UsageDay {
  /** The UTC date, `YYYY-MM-DD`. */
  date: string;
  requests: number;
}

/** Requests per UTC day of the company's key `prefix`, the last USAGE_DAYS days, oldest first. */
export async function keyUsageDays(
  companyId: string,
  prefix: string,
  caller: Caller,
  nowMs = Date.now(),
): Promise<UsageDay[]> {
  const keys = await listKeys(companyId, undefined, caller);
  if (!keys.some((k) => k.prefix === prefix))
    throw new KeyAdminError("not_found", "No key with this prefix in this company.");
  const today = startOfDay(nowMs);
  const starts = Array.from(
    { length: USAGE_DAYS },
    (_, i) => today - (USAGE_DAYS - 1 - i) * DAY_MS,
  );
  const counts = await Promise.all(
    starts.map((from) => countKeyRequests(companyId, prefix, from, from + DAY_MS)),
  );
  return starts.map((from, i) => ({
    date: new Date(from).toISOString().slice(0, 10),
    requests: counts[i],
  }));
}
