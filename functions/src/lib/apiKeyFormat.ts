import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import { BASE62_ALPHABET, toBase62 } from "./base62";

/**
 * The key string format of the contract (docs/firestore-data.md, "API keys"):
 * `vfe_` or `csa_`, 32 random base62 characters, then the CRC-32 of those 32 characters
 * in base62, left-padded to 6. The checksum lets us reject typos and truncated keys
 * without touching the database.
 */
export const KEY_APIS = ["findings", "company"] as const;
export type KeyApi = (typeof KEY_APIS)[number];

export const KEY_PREFIX: Record<KeyApi, string> = { findings: "vfe_", company: "csa_" };
export const RANDOM_LENGTH = 32;
export const CHECKSUM_LENGTH = 6;
/** Characters of the key kept for display and audit (`apiKeys.prefix`). */
export const DISPLAY_PREFIX_LENGTH = 12;
/** A stored display prefix: the key's first 12 characters, e.g. `vfe_AbC123xy`. */
export const DISPLAY_PREFIX_PATTERN = /^(vfe|csa)_[0-9A-Za-z]{8}$/;

const KEY_SHAPE = /^(vfe|csa)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export function checksumOf(random: string): string {
  return toBase62(crc32(random), CHECKSUM_LENGTH);
}

/** Builds a key from its 32 random characters (exported for deterministic demo keys). */
export function composeKey(api: KeyApi, random: string): string {
  if (!/^[0-9A-Za-z]{32}$/.test(random)) throw new RangeError("a key needs 32 base62 characters");
  return `${KEY_PREFIX[api]}${random}${checksumOf(random)}`;
}

/** A new key from the operating system's cryptographically secure generator. */
export function generateKey(api: KeyApi): string {
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62_ALPHABET[randomInt(62)];
  return composeKey(api, random);
}

/** The API a well-formed key belongs to, or null when shape, prefix or checksum is wrong. */
export function parseKey(candidate: string): KeyApi | null {
  const match = KEY_SHAPE.exec(candidate);
  if (!match) return null;
  const [, prefix, random, checksum] = match;
  if (checksumOf(random) !== checksum) return null;
  return prefix === "vfe" ? "findings" : "company";
}

/** The Firestore document id of a key: lowercase hex SHA-256 of the whole string. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
