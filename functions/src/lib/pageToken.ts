import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
} from "node:crypto";

/**
 * Opaque, stateless page tokens: `kid.base64url(version ‖ iv ‖ AES-256-GCM(payload) ‖ tag)`.
 * Encrypted, not just signed: the cursor may name a hidden row. The scope digest binds it to
 * what the kernel derives (operation, tenant, path, filters). Of several secrets the first
 * encrypts and every one decrypts; the `kid` in clear says which made a token.
 */
export interface TokenPayload<C> {
  /** Digest of everything the token is bound to. */
  s: string;
  /** Where the next page starts (after this position). */
  c: C;
}

const VERSION = 3;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KID_CHARS = 8;
/**
 * Plaintexts are padded (with JSON whitespace) to a multiple of this, so a token's length says
 * little about the id inside.
 */
const PAD_TO = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** The characters of every token: `kid.base64url`. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_.-]+$/;

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");

/** A short public id of a secret (never reveals it): which secret made a token. */
export const keyIdOf = (secret: string) =>
  createHash("sha256")
    .update(`page-token-kid\u0000${secret}`)
    .digest("base64url")
    .slice(0, KID_CHARS);

/** A short, stable digest of a scope description (canonical JSON of its parts). */
export function scopeDigest(parts: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(parts)
      .sort()
      .map((k) => [k, parts[k] ?? null]),
  );
  return createHmac("sha256", "page-token-scope")
    .update(canonical)
    .digest("base64url")
    .slice(0, 22);
}

/**
 * The AES key of a secret. HKDF with its own `info`, so the encryption key is independent of
 * the key id. Derived once per secret.
 */
const keys = new Map<string, Buffer>();
function encryptionKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(
      hkdfSync("sha256", secret, "safety-apis/page-token", "page-token v3 aes-256-gcm", 32),
    );
    keys.set(secret, key);
  }
  return key;
}

/** What GCM authenticates besides the ciphertext: the format version and the kid in clear. */
const associatedData = (kid: string) => Buffer.from(`page-token.v${VERSION}.${kid}`, "utf8");

/**
 * Encrypts with the first secret; a fresh random IV per token, so equal cursors give unrelated
 * tokens. Random 96-bit IVs are safe for 2^32 tokens per key (NIST SP 800-38D), far beyond what
 * one secret makes between rotations.
 */
export function encodeToken<C>(secrets: readonly string[], scope: string, cursor: C): string {
  const kid = keyIdOf(secrets[0]);
  const json = Buffer.from(
    JSON.stringify({ s: scope, c: cursor } satisfies TokenPayload<C>),
    "utf8",
  );
  const plaintext = Buffer.concat([
    json,
    Buffer.alloc((PAD_TO - (json.length % PAD_TO)) % PAD_TO, " "),
  ]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(secrets[0]), iv).setAAD(
    associatedData(kid),
  );
  const sealed = [cipher.update(plaintext), cipher.final(), cipher.getAuthTag()];
  return `${kid}.${b64(Buffer.concat([Buffer.of(VERSION), iv, ...sealed]))}`;
}

/** Why a token does not decode. */
export type TokenRefusal = "malformed" | "tampered" | "retired_key" | "other_query";
export type DecodeResult<C> = { ok: true; cursor: C } | { ok: false; reason: TokenRefusal };
type Opened =
  { ok: true; payload: unknown } | { ok: false; reason: Exclude<TokenRefusal, "other_query"> };

/**
 * The plaintext, or undefined when anything authenticated (kid, version, IV, ciphertext, tag)
 * changed.
 */
function decrypt(secret: string, kid: string, body: Buffer): Buffer | undefined {
  const iv = body.subarray(1, 1 + IV_BYTES);
  const tag = body.subarray(body.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey(secret), iv, {
      authTagLength: TAG_BYTES,
    })
      .setAAD(associatedData(kid))
      .setAuthTag(tag);
    return Buffer.concat([
      decipher.update(body.subarray(1 + IV_BYTES, body.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return undefined;
  }
}

function openCurrent(secrets: readonly string[], kid: string, encoded: string): Opened {
  const body = Buffer.from(encoded, "base64url");
  // Node decodes base64url leniently (spare trailing bits are ignored): only the canonical
  // spelling is ours, so that no altered character is ever accepted.
  if (b64(body) !== encoded || body.length <= 1 + IV_BYTES + TAG_BYTES || body[0] !== VERSION)
    return { ok: false, reason: "malformed" };
  const candidates = secrets.filter((secret) => keyIdOf(secret) === kid);
  if (!candidates.length) return { ok: false, reason: "retired_key" };
  for (const secret of candidates) {
    const plaintext = decrypt(secret, kid, body);
    if (plaintext) return parsePayload(plaintext);
  }
  return { ok: false, reason: "tampered" };
}

function parsePayload(json: Buffer): Opened {
  try {
    return { ok: true, payload: JSON.parse(json.toString("utf8")) as unknown };
  } catch {
    return { ok: false, reason: "malformed" };
  }
}

/**
 * Authenticates first (the GCM tag), then checks the scope; the cursor's shape is the caller's to
 * check.
 */
export function decodeToken<C>(
  secrets: readonly string[],
  scope: string,
  token: string,
): DecodeResult<C> {
  const parts = token.split(".");
  if (parts.length !== 2 || parts[0].length !== KID_CHARS || !parts.every((p) => BASE64URL.test(p)))
    return { ok: false, reason: "malformed" };
  const opened = openCurrent(secrets, parts[0], parts[1]);
  if (!opened.ok) return opened;
  const decoded = opened.payload as { s?: unknown; c?: C } | null;
  if (typeof decoded !== "object" || decoded === null) return { ok: false, reason: "malformed" };
  if (decoded.s !== scope) return { ok: false, reason: "other_query" };
  return { ok: true, cursor: decoded.c as C };
}
