import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Opaque, stateless page tokens: `base64url(payload).base64url(HMAC-SHA256(payload))`.
 * The payload binds the cursor to a scope (the key's project, the endpoint, the mode and every
 * filter), so a token replayed with other filters or by another project's key is refused, and
 * tokens survive deploys and restarts because nothing is stored server-side.
 */
export interface TokenPayload<C> {
  v: 1;
  /** Digest of everything the token is bound to. */
  s: string;
  /** Where the next page starts (after this position). */
  c: C;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");
const mac = (secret: string, data: string) => createHmac("sha256", secret).update(data).digest();

/** A short, stable digest of a scope description (canonical JSON of its parts). */
export function scopeDigest(parts: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(parts).sort().map((k) => [k, parts[k] ?? null]));
  return createHmac("sha256", "page-token-scope").update(canonical).digest("base64url").slice(0, 22);
}

export function encodeToken<C>(secret: string, scope: string, cursor: C): string {
  const payload = b64(JSON.stringify({ v: 1, s: scope, c: cursor } satisfies TokenPayload<C>));
  return `${payload}.${b64(mac(secret, payload))}`;
}

export type DecodeResult<C> = { ok: true; cursor: C } | { ok: false; reason: "malformed" | "tampered" | "other_query" };

/** Verifies signature first (constant time), then the scope; the cursor's shape is the caller's to check. */
export function decodeToken<C>(secret: string, scope: string, token: string): DecodeResult<C> {
  const parts = token.split(".");
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) {
    return { ok: false, reason: "malformed" };
  }
  const expected = mac(secret, parts[0]);
  const given = Buffer.from(parts[1], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "tampered" };
  let payload: TokenPayload<C>;
  try {
    payload = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8")) as TokenPayload<C>;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (payload?.v !== 1) return { ok: false, reason: "malformed" };
  if (payload.s !== scope) return { ok: false, reason: "other_query" };
  return { ok: true, cursor: payload.c };
}
