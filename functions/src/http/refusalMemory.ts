import type { Request } from "express";
import { isIP } from "node:net";
import { forwardedHops } from "../config/params";
import { setBounded } from "../lib/bounded";
import { MINUTE_MS } from "../lib/dates";
import type { AuditSubject } from "./context";
import { ApiError } from "./errors";

/**
 * Refusals a key met lately, answered again from memory (per instance) without reading
 * anything, so a key that keeps being refused costs a bounded number of reads per window
 * whatever it sends. Each is kept no longer than what stays true meanwhile: a full window until
 * it resets (counts only grow within it, at most a minute), a revoked or unknown key for a
 * minute, access switched off for FORBIDDEN_MS (switching it back on shows within that).
 */
export const FORBIDDEN_MS = 10_000;
const MAX_KEYS = 10_000;

interface Remembered {
  until: number;
  error: ApiError;
  subject: AuditSubject | null;
}

const refusals = new Map<string, Remembered>();

export function rememberRefusal(
  keyHash: string,
  error: ApiError,
  subject: AuditSubject | null,
  forMs: number,
  now = Date.now(),
): void {
  setBounded(
    refusals,
    keyHash,
    { until: now + Math.min(forMs, MINUTE_MS), error, subject },
    MAX_KEYS,
  );
}

/**
 * The refusal to answer again, with its waiting times counted down; null when none is remembered.
 */
export function rememberedRefusal(
  keyHash: string,
  now = Date.now(),
): { error: ApiError; subject: AuditSubject | null } | null {
  const found = refusals.get(keyHash);
  if (!found || found.until <= now) return null;
  const { error } = found;
  if (error.code !== "rate_limited") return found;
  const wait = String(Math.max(1, Math.ceil((found.until - now) / 1000)));
  const headers: Record<string, string> = { ...error.headers, "Retry-After": wait };
  if (headers.RateLimit) headers.RateLimit = headers.RateLimit.replace(/t=\d+/, `t=${wait}`);
  return {
    error: new ApiError(
      error.code,
      error.message.replace(/retry after \d+ s/, `retry after ${wait} s`),
      headers,
    ),
    subject: found.subject,
  };
}

/**
 * A per-instance limit on failed authentications that cost a read (a well-formed key that is
 * unknown or revoked) per client address: past it, such keys are answered 429 from memory.
 * Failures that cost nothing (no key, a malformed one) never count, so they cannot lock anyone
 * out; a key that authenticated here lately passes even from a blocked address (shared NAT).
 */
export const FAILURES_PER_MINUTE = 30;
const TRUSTED_KEY_MS = 5 * MINUTE_MS;
/** Addresses and keys remembered per instance; the oldest are forgotten first. */
const MAX_ENTRIES = 20_000;

const failures = new Map<string, { minute: number; count: number }>();
const trustedKeys = new Map<string, number>();

/**
 * The client's address: the `X-Forwarded-For` entry `hops` from the end (config/params
 * FORWARDED_HOPS: Google's front end appends the address it saw, and an HTTPS load balancer in
 * front appends its own after the client's); entries before it are the client's own claims. An
 * IPv6 address counts as its /64, which one client holds whole.
 */
export function clientAddress(req: Request, hops = forwardedHops()): string {
  const entries = (req.get("x-forwarded-for") ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const address = entries.length
    ? entries[Math.max(0, entries.length - hops)]
    : (req.socket.remoteAddress ?? "unknown");
  return networkOf(address);
}

/** An IPv6 address as its /64 (`2001:db8:1:2::/64`); an IPv4 one, mapped or not, as it is. */
export function networkOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
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
  setBounded(
    failures,
    address,
    { minute, count: seen?.minute === minute ? seen.count + 1 : 1 },
    MAX_ENTRIES,
  );
}

export function noteSuccess(keyHash: string, now = Date.now()): void {
  setBounded(trustedKeys, keyHash, now + TRUSTED_KEY_MS, MAX_ENTRIES);
}
