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
