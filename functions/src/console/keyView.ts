import { toIso } from "../lib/dates";
import type { ApiKeyDoc } from "../repos/apiKeys";
import type { LimitsWithSource } from "../services/rateLimit";

/**
 * A key as the console shows it: never the hash, never the key. With `rateLimits` (the
 * listing), its effective limits and where each comes from.
 */
export function keyView(doc: ApiKeyDoc, rateLimits?: LimitsWithSource) {
  return {
    name: doc.name,
    prefix: doc.prefix,
    api: doc.api,
    projectId: doc.projectId,
    scopes: doc.scopes,
    createdBy: doc.createdBy,
    createdAt: toIso(doc.createdAt),
    revokedBy: doc.revokedBy,
    revokedAt: toIso(doc.revokedAt),
    lastUsedAt: toIso(doc.lastUsedAt ?? null),
    expiresAt: toIso(doc.expiresAt ?? null),
    ...(rateLimits ? { rateLimits } : {}),
  };
}
