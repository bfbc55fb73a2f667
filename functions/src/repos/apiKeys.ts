import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { z } from "../http/zod";
import { nullableString, parseStored, rateLimitOverride, timestamp } from "./stored";

/** `apiKeys/{keyHash}`: API-owned, written only by key management. */
export const apiKeyDoc = z.object({
  api: z.enum(["findings", "company"]),
  companyId: z.string().min(1),
  projectId: nullableString,
  scopes: z.array(z.string()),
  name: z.string(),
  prefix: z.string(),
  createdBy: z.string(),
  createdAt: timestamp,
  revokedAt: timestamp,
  revokedBy: nullableString,
  rateLimits: rateLimitOverride,
  lastUsedAt: timestamp.optional(),
});
export type ApiKeyDoc = z.output<typeof apiKeyDoc>;

export const apiKeysCollection = () => firestore().collection("apiKeys");

export async function findApiKey(keyHash: string): Promise<ApiKeyDoc | null> {
  const snap = await apiKeysCollection().doc(keyHash).get();
  return snap.exists ? parseStored(apiKeyDoc, snap.ref.path, snap.data()) : null;
}

export type NewApiKey = Omit<ApiKeyDoc, "createdAt" | "revokedAt" | "revokedBy" | "lastUsedAt" | "rateLimits">;

export function newApiKeyData(key: NewApiKey, now: Timestamp) {
  return { ...key, createdAt: now, revokedAt: null, revokedBy: null };
}
