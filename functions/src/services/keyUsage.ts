import { DAY_MS } from "../lib/dates";
import { hasExpired, type ApiKeyDoc } from "../repos/apiKeys";
import { countKeyRequests } from "../repos/keyRequestCounts";
import { KeyAdminError, type Caller } from "./adminAccess";
import { listKeys } from "./keyAdmin";

/** How many UTC days the console's usage chart covers, today included. */
export const USAGE_DAYS = 30;

const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Requests admitted today (UTC day, the daily quota's window) of each key that still works,
 * by prefix; revoked and expired keys are left out (they make no more requests).
 */
export async function requestsToday(
  companyId: string,
  docs: readonly ApiKeyDoc[],
  nowMs = Date.now(),
): Promise<Map<string, number>> {
  const live = docs.filter((d) => !d.revokedAt && !hasExpired(d.expiresAt, nowMs));
  const from = startOfDay(nowMs);
  const counts = await Promise.all(
    live.map((d) => countKeyRequests(companyId, d.prefix, from, from + DAY_MS)),
  );
  return new Map(live.map((d, i) => [d.prefix, counts[i]]));
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
