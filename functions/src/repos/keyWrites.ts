import { Timestamp, type Transaction } from "firebase-admin/firestore";
import { MAX_ACTIVE_KEYS } from "../config/constants";
import { firestore } from "../config/firebase";
import { displayPrefix, generateKey, hashKey, type KeyApi } from "../lib/apiKeyFormat";
import {
  apiKeyShape,
  apiKeysCollection,
  hasExpired,
  newApiKeyData,
  type ApiKeyDoc,
} from "./apiKeys";
import { stageChangeEntry, type AuditActor } from "./auditLogs";
import { companyRef, isLiveProjectOf, projectRef, projectShape } from "./companies";
import { parseStored, parseStoredOrNull } from "./stored";
import { runContended } from "./transactions";

/**
 * The writes of key management (company settings: settingsWrites.ts). Each one and its privileged
 * audit entry commit together (one transaction or batch), so the trail never misses a change and
 * never records one that did not happen.
 */

/** Why a key write did not happen; services/keyAdmin maps it to its own error. */
export class KeyStoreError extends Error {
  constructor(
    readonly reason:
      | "company_not_found"
      | "key_not_found"
      | "ambiguous_prefix"
      | "not_company_project"
      | "active_key_limit",
    message: string,
  ) {
    super(message);
    this.name = "KeyStoreError";
  }
}

/**
 * Serialises key creations per company and API: every creation reads and writes this document,
 * so two concurrent transactions cannot both count 19 active keys and both add one.
 */
export const lockRef = (companyId: string, api: KeyApi) =>
  firestore().collection("apiKeyLocks").doc(`${companyId}__${api}`);

export async function assertCompany(tx: Transaction, companyId: string): Promise<void> {
  if (!(await tx.get(companyRef(companyId))).exists)
    throw new KeyStoreError("company_not_found", "No such company.");
}

export interface NewKey {
  companyId: string;
  api: KeyApi;
  name: string;
  projectId: string | null;
  scopes: string[];
}

export async function insertKey(
  input: NewKey,
  actor: AuditActor,
): Promise<{ key: string; doc: ApiKeyDoc }> {
  const key = generateKey(input.api);
  const hash = hashKey(key);
  return runContended(async (tx) => {
    const lock = lockRef(input.companyId, input.api);
    const [, working, project] = await Promise.all([
      tx.get(lock),
      workingKeys(tx, input.companyId, input.api),
      input.projectId ? tx.get(projectRef(input.projectId)) : Promise.resolve(null),
      assertCompany(tx, input.companyId),
    ]);
    if (project) {
      const parsed = project.exists
        ? parseStored(projectShape, project.ref.path, project.data())
        : null;
      if (!isLiveProjectOf(parsed, input.companyId)) {
        throw new KeyStoreError(
          "not_company_project",
          "projectId is not a project of this company.",
        );
      }
    }
    if (working >= MAX_ACTIVE_KEYS) {
      throw new KeyStoreError(
        "active_key_limit",
        `This company already has ${MAX_ACTIVE_KEYS} active ${input.api} keys; revoke one first.`,
      );
    }
    const now = Timestamp.now();
    const data = newApiKeyData({ ...input, prefix: displayPrefix(key), createdBy: actor.id }, now);
    tx.create(apiKeysCollection().doc(hash), data);
    tx.set(lock, { updatedAt: now });
    stageChangeEntry(tx, input.companyId, actor, {
      action: "api_key.created",
      api: input.api,
      projectId: input.projectId,
      target: { type: "api_key", id: data.prefix },
    });
    return { key, doc: parseStored(apiKeyShape, `apiKeys/${hash}`, data) };
  });
}

/** A key as listed, with its document id: the hash that names its usage counter. */
export type StoredKey = ApiKeyDoc & { hash: string };

export async function readCompanyKeys(companyId: string, api?: KeyApi): Promise<StoredKey[]> {
  if (!(await companyRef(companyId).get()).exists)
    throw new KeyStoreError("company_not_found", "No such company.");
  let query = apiKeysCollection().where("companyId", "==", companyId);
  if (api) query = query.where("api", "==", api);
  const snap = await query.get();
  return snap.docs
    .flatMap((doc) => {
      const key = parseStoredOrNull(apiKeyShape, doc.ref.path, doc.data());
      return key ? [{ ...key, hash: doc.id }] : [];
    })
    .sort((a, b) => (b.createdAt?.toMillis() ?? 0) - (a.createdAt?.toMillis() ?? 0));
}

/**
 * How many of the company's keys of this API still work (not revoked, not past a roll's expiry):
 * at most MAX_ACTIVE_KEYS, counted under the lock by every creation and roll.
 */
export async function workingKeys(tx: Transaction, companyId: string, api: KeyApi) {
  const snap = await tx.get(
    apiKeysCollection()
      .where("companyId", "==", companyId)
      .where("api", "==", api)
      .where("revokedAt", "==", null),
  );
  return snap.docs.filter((d) => !hasExpired(d.get("expiresAt"), Date.now())).length;
}

/** The company's keys with this display prefix, read in the transaction. */
export async function keysWithPrefix(tx: Transaction, companyId: string, prefix: string) {
  const snap = await tx.get(
    apiKeysCollection().where("companyId", "==", companyId).where("prefix", "==", prefix),
  );
  return snap.docs.flatMap((d) => {
    const doc = parseStoredOrNull(apiKeyShape, d.ref.path, d.data());
    return doc ? [{ ref: d.ref, doc }] : [];
  });
}

/**
 * Revokes the company's key with this prefix. Revoking a revoked key changes nothing; a prefix
 * that two live keys share (possible only for keys not made by generateKey, such as the demo
 * keys) names neither, so nothing is revoked, as a roll or a limit change refuses it.
 */
export async function storeRevocation(
  companyId: string,
  prefix: string,
  actor: AuditActor,
): Promise<{ doc: ApiKeyDoc; alreadyRevoked: boolean }> {
  return firestore().runTransaction(async (tx) => {
    const docs = await keysWithPrefix(tx, companyId, prefix);
    if (!docs.length)
      throw new KeyStoreError("key_not_found", "No key with this prefix in this company.");
    const live = docs.filter((d) => !d.doc.revokedAt);
    if (!live.length) return { doc: docs[0].doc, alreadyRevoked: true };
    if (live.length > 1)
      throw new KeyStoreError(
        "ambiguous_prefix",
        `The prefix ${prefix} matches ${live.length} keys; none was revoked.`,
      );
    const [{ ref, doc }] = live;
    const now = Timestamp.now();
    tx.update(ref, { revokedAt: now, revokedBy: actor.id });
    stageChangeEntry(tx, companyId, actor, {
      action: "api_key.revoked",
      api: doc.api,
      projectId: doc.projectId,
      target: { type: "api_key", id: doc.prefix },
    });
    return { doc: { ...doc, revokedAt: now, revokedBy: actor.id }, alreadyRevoked: false };
  });
}
