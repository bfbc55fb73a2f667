import { Timestamp } from "firebase-admin/firestore";
import { MAX_ACTIVE_KEYS } from "../config/constants";
import { displayPrefix, generateKey, hashKey } from "../lib/apiKeyFormat";
import { apiKeysCollection, apiKeyShape, newApiKeyData, type ApiKeyDoc } from "./apiKeys";
import { stageChangeEntry, type AuditActor } from "./auditLogs";
import { isLiveProjectOf, projectRef, projectShape } from "./companies";
import { assertCompany, KeyStoreError, lockRef, workingKeys } from "./keyWrites";
import { parseStored, parseStoredOrNull } from "./stored";
import { runContended } from "./transactions";

export interface RolledKey {
  /** The new key, shown once. */
  key: string;
  doc: ApiKeyDoc;
  /** The old key, with the expiry it now has. */
  rolled: ApiKeyDoc;
}

/**
 * Rolls the company's key `prefix`: a new key with its name, API, vessel, scopes and per-key
 * limits, and the old key's `expiresAt`, after which authentication answers 401 for it. Only a
 * key that is neither revoked nor rolled already can be rolled. Both audit entries commit with
 * the change (the roll's with the expiry and the new key's prefix), in the transaction serialised
 * with key creations (keyWrites.ts's lock).
 */
export async function rollKey(
  companyId: string,
  prefix: string,
  expiresInMs: number,
  actor: AuditActor,
): Promise<RolledKey> {
  return runContended(async (tx) => {
    const old = (
      await tx.get(
        apiKeysCollection().where("companyId", "==", companyId).where("prefix", "==", prefix),
      )
    ).docs.flatMap((d) => {
      const doc = parseStoredOrNull(apiKeyShape, d.ref.path, d.data());
      return doc && !doc.revokedAt && !doc.expiresAt ? [{ ref: d.ref, doc }] : [];
    });
    if (!old.length)
      throw new KeyStoreError(
        "key_not_found",
        "No key with this prefix in this company that can be rolled (not revoked, not rolled).",
      );
    if (old.length > 1)
      throw new KeyStoreError(
        "ambiguous_prefix",
        `The prefix ${prefix} matches ${old.length} keys; revoke and replace one of them first.`,
      );
    const { ref: oldRef, doc: oldDoc } = old[0];
    // The lock serialises the roll with creations. The old key works until its expiry, so a
    // roll that keeps it needs a free place among the working keys; one that stops it now
    // replaces it.
    const [, working, project] = await Promise.all([
      tx.get(lockRef(companyId, oldDoc.api)),
      workingKeys(tx, companyId, oldDoc.api),
      oldDoc.projectId ? tx.get(projectRef(oldDoc.projectId)) : Promise.resolve(null),
      assertCompany(tx, companyId),
    ]);
    if (project) {
      const parsed = project.exists
        ? parseStored(projectShape, project.ref.path, project.data())
        : null;
      if (!isLiveProjectOf(parsed, companyId))
        throw new KeyStoreError(
          "not_company_project",
          "The key's vessel is no longer a project of this company; create a new key instead.",
        );
    }
    if (expiresInMs > 0 && working >= MAX_ACTIVE_KEYS)
      throw new KeyStoreError(
        "active_key_limit",
        `This company already has ${MAX_ACTIVE_KEYS} working ${oldDoc.api} keys, and a roll ` +
          "keeps the old key working until its expiry: revoke a key first, or roll with " +
          "expiry now.",
      );
    const key = generateKey(oldDoc.api);
    const hash = hashKey(key);
    const now = Timestamp.now();
    const expiresAt = Timestamp.fromMillis(now.toMillis() + expiresInMs);
    const data = {
      ...newApiKeyData(
        {
          api: oldDoc.api,
          companyId,
          projectId: oldDoc.projectId,
          scopes: oldDoc.scopes,
          name: oldDoc.name,
          prefix: displayPrefix(key),
          createdBy: actor.id,
        },
        now,
      ),
      ...(oldDoc.rateLimits ? { rateLimits: oldDoc.rateLimits } : {}),
    };
    tx.create(apiKeysCollection().doc(hash), data);
    tx.update(oldRef, { expiresAt });
    tx.set(lockRef(companyId, oldDoc.api), { updatedAt: now });
    const entry = { api: oldDoc.api, projectId: oldDoc.projectId };
    stageChangeEntry(
      tx,
      companyId,
      actor,
      { ...entry, action: "api_key.created", target: { type: "api_key", id: data.prefix } },
      now,
    );
    stageChangeEntry(
      tx,
      companyId,
      actor,
      {
        ...entry,
        action: "api_key.rolled",
        target: { type: "api_key", id: oldDoc.prefix },
        expiresAt,
        successor: data.prefix,
      },
      now,
    );
    return {
      key,
      doc: parseStored(apiKeyShape, `apiKeys/${hash}`, data),
      rolled: { ...oldDoc, expiresAt },
    };
  });
}
