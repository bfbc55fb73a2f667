import type { Request } from "express";
import { setBounded } from "../lib/bounded";
import { MINUTE_MS } from "../lib/dates";

/**
 * A per-instance limit on failed authentications per client address, checked before any
 * Firestore read: a loop of malformed, unknown or revoked keys from one address costs reads
 * only until its budget for the minute is spent, then is answered 429 from memory.
 *
 * Chosen over a negative cache of unknown key hashes: key checksums are public (CRC-32), so a
 * flood of fresh well-formed random keys would miss any such cache every time, while an
 * address budget holds whatever keys are sent. A key that authenticated on this instance in
 * the last minutes is let through even from a blocked address (an integrator behind the same
 * NAT as a misconfigured client keeps working).
 */
export const FAILURES_PER_MINUTE = 30;
const TRUSTED_KEY_MS = 5 * MINUTE_MS;
/** Addresses and keys remembered per instance; the oldest are forgotten first. */
const MAX_ENTRIES = 20_000;

const failures = new Map<string, { minute: number; count: number }>();
const trustedKeys = new Map<string, number>();

/**
 * The client's address. Behind Google's front end (Cloud Functions, Cloud Run, an HTTPS load
 * balancer) the last `X-Forwarded-For` entry is the address Google saw, appended by Google;
 * earlier entries are the client's own claims and are ignored.
 */
export function clientAddress(req: Request): string {
  const forwarded = req.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  return last || req.socket.remoteAddress || "unknown";
}

/** Seconds until the address may try again, or 0 when it may now (a trusted key always may). */
export function blockedFor(address: string, keyHash: string, now = Date.now()): number {
  if ((trustedKeys.get(keyHash) ?? 0) > now) return 0;
  const minute = Math.floor(now / MINUTE_MS);
  const seen = failures.get(address);
  if (!seen || seen.minute !== minute || seen.count < FAILURES_PER_MINUTE) return 0;
  return Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000));
}

export function noteFailure(address: string, now = Date.now()): void {
  const minute = Math.floor(now / MINUTE_MS);
  const seen = failures.get(address);
  setBounded(failures, address, { minute, count: seen?.minute === minute ? seen.count + 1 : 1 }, MAX_ENTRIES);
}

export function noteSuccess(keyHash: string, now = Date.now()): void {
  setBounded(trustedKeys, keyHash, now + TRUSTED_KEY_MS, MAX_ENTRIES);
}
