import type { ApiKeyDoc } from "../repos/apiKeys";
import { toIso } from "../repos/storedFields";

/** A key as the console shows it: never the hash, never the key. */
export function keyView(doc: ApiKeyDoc) {
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
  };
}
export type KeyView = ReturnType<typeof keyView>;
