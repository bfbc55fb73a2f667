import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { KEY_APIS } from "../lib/apiKeyFormat";
import { parseStoredOrNull, type Stored } from "./stored";
import { nullableString, rateLimitOverride, requiredOneOf, requiredString, stringList, text, timestamp } from "./storedFields";
import { readDoc } from "./readBatch";

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
};
export type ApiKeyDoc = Stored<typeof apiKeyShape>;

export const apiKeysCollection = () => firestore().collection("apiKeys");

export async function findApiKey(keyHash: string): Promise<ApiKeyDoc | null> {
  const snap = await readDoc(apiKeysCollection().doc(keyHash));
  return snap.exists ? parseStoredOrNull(apiKeyShape, snap.ref.path, snap.data()) : null;
}

export type NewApiKey = Omit<ApiKeyDoc, "createdAt" | "revokedAt" | "revokedBy" | "lastUsedAt" | "rateLimits">;

export function newApiKeyData(key: NewApiKey, now: Timestamp) {
  return { ...key, createdAt: now, revokedAt: null, revokedBy: null };
}
