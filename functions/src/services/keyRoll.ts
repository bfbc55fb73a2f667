import { DAY_MS, MINUTE_MS } from "../lib/dates";
import { rollKey, type RolledKey } from "../repos/rolledKeys";
import { actorOf, assertMayManageKeys, mapped, type Caller } from "./adminAccess";

/** How long a rolled key keeps working (the console offers exactly these). */
export const ROLL_EXPIRIES = {
  now: 0,
  "1h": 60 * MINUTE_MS,
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
} as const;
export type RollExpiry = keyof typeof ROLL_EXPIRIES;

/**
 * Replaces a key without breaking its integration (as Stripe's roll does): a new key with the
 * same name, vessel and scopes, while the old one keeps working until the chosen expiry and then
 * answers 401 like a revoked key. Same permission as creating a key.
 */
export function rollApiKey(
  companyId: string,
  prefix: string,
  expiresIn: RollExpiry,
  caller: Caller,
): Promise<RolledKey> {
  assertMayManageKeys(caller, companyId);
  return mapped(rollKey(companyId, prefix, ROLL_EXPIRIES[expiresIn], actorOf(caller)));
}
