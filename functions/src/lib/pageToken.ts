import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * Opaque, stateless page tokens: `kid.base64url(payload).base64url(HMAC-SHA256(payload))`.
 * The payload binds the cursor to a scope (the key's project or company, the endpoint, the
 * mode and every filter), so a token replayed with other filters or by another tenant's key is
 * refused; nothing is stored server-side, so tokens survive deploys and restarts.
 *
 * Rotation: several secrets may be configured; the first signs, every one verifies, and the
 * key id (`kid`, derived from the secret) says which one signed a token. Tokens of the first
 * format (two parts, no kid) are verified against every configured secret.
 */
export interface TokenPayload<C> {
  v: 2;
  /** Digest of everything the token is bound to. */
  s: string;
  /** Where the next page starts (after this position). */
  c: C;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");
const mac = (secret: string, data: string) => createHmac("sha256", secret).update(data).digest();
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A short public id of a secret (never reveals it): which secret signed a token. */
export const keyIdOf = (secret: string) => createHash("sha256").update(`page-token-kid\u0000${secret}`).digest("base64url").slice(0, 8);

/** A short, stable digest of a scope description (canonical JSON of its parts). */
export function scopeDigest(parts: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(parts).sort().map((k) => [k, parts[k] ?? null]));
  return createHmac("sha256", "page-token-scope").update(canonical).digest("base64url").slice(0, 22);
}

/** Signs with the first secret. */
export function encodeToken<C>(secrets: readonly string[], scope: string, cursor: C): string {
  const payload = b64(JSON.stringify({ v: 2, s: scope, c: cursor } satisfies TokenPayload<C>));
  return `${keyIdOf(secrets[0])}.${payload}.${b64(mac(secrets[0], payload))}`;
}

export type DecodeResult<C> = { ok: true; cursor: C } | { ok: false; reason: "malformed" | "tampered" | "retired_key" | "other_query" };

function verifies(secret: string, payload: string, signature: string): boolean {
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Verifies the signature first (constant time), then the scope; the cursor's shape is the caller's to check. */
export function decodeToken<C>(secrets: readonly string[], scope: string, token: string): DecodeResult<C> {
  const parts = token.split(".");
  if (!parts.every((p) => BASE64URL.test(p))) return { ok: false, reason: "malformed" };
  let candidates: readonly string[];
  if (parts.length === 3) {
    candidates = secrets.filter((secret) => keyIdOf(secret) === parts[0]);
    if (!candidates.length) return { ok: false, reason: "retired_key" };
  } else if (parts.length === 2) {
    candidates = secrets;
  } else {
    return { ok: false, reason: "malformed" };
  }
  const [payload, signature] = parts.slice(-2);
  if (!candidates.some((secret) => verifies(secret, payload, signature))) return { ok: false, reason: "tampered" };
  let decoded: { v?: unknown; s?: unknown; c?: C };
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as typeof decoded;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (decoded?.v !== 1 && decoded?.v !== 2) return { ok: false, reason: "malformed" };
  if (decoded.s !== scope) return { ok: false, reason: "other_query" };
  return { ok: true, cursor: decoded.c as C };
}
