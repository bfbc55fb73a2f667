import { Timestamp, type DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { KEY_APIS } from "../lib/apiKeyFormat";
import { parseStoredOrNull, type Stored } from "./stored";
import {
  nullableString,
  rateLimitOverride,
  requiredOneOf,
  requiredString,
  stringList,
  text,
  timestamp,
} from "./storedFields";

/**
 * `apiKeys/{keyHash}`: API-owned, written only by key management. `api`, `companyId` and
 * `prefix` have no safe absent reading: a key document without them is unusable (unknown key).
 */
export const apiKeyShape = {
  api: requiredOneOf(KEY_APIS),
  companyId: requiredString,
  projectId: nullableString,
  scopes: stringList,
  name: text,
  prefix: requiredString,
  createdBy: text,
  createdAt: timestamp,
  revokedAt: timestamp,
  revokedBy: nullableString,
  rateLimits: rateLimitOverride,
  lastUsedAt: timestamp,
  expiresAt: timestamp,
};
export type ApiKeyDoc = Stored<typeof apiKeyShape>;

export const apiKeysCollection = () => firestore().collection("apiKeys");

export const apiKeyRef = (keyHash: string) => apiKeysCollection().doc(keyHash);

/** A key document as read; null when absent or unusable (an unknown key). */
export const apiKeyOf = (snap: DocumentSnapshot): ApiKeyDoc | null =>
  snap.exists ? parseStoredOrNull(apiKeyShape, snap.ref.path, snap.data()) : null;

export type NewApiKey = Omit<
  ApiKeyDoc,
  "createdAt" | "revokedAt" | "revokedBy" | "lastUsedAt" | "rateLimits" | "expiresAt"
>;

/** Whether a rolled key's expiry (`expiresAt`, docs/firestore-data.md) has passed at `nowMs`. */
export const hasExpired = (expiresAt: unknown, nowMs: number): boolean =>
  expiresAt instanceof Timestamp && expiresAt.toMillis() <= nowMs;

export function newApiKeyData(key: NewApiKey, now: Timestamp) {
  return { ...key, createdAt: now, revokedAt: null, revokedBy: null };
}
