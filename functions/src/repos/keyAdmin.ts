import { Timestamp, type Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { displayPrefix, generateKey, hashKey, type KeyApi } from "../lib/apiKeyFormat";
import { isLiveProjectOf } from "../services/access";
import { auditEntry } from "../services/audit";
import { KeyAdminError, MAX_ACTIVE_KEYS, type Caller } from "../services/keyAdmin";
import { apiKeyShape, apiKeysCollection, newApiKeyData, type ApiKeyDoc } from "./apiKeys";
import { auditLogsCollection } from "./auditLogs";
import { companyRef } from "./companies";
import { projectRef, projectShape } from "./projects";
import { parseStored, parseStoredOrNull } from "./stored";

/**
 * The writes of key management. Each one and its privileged audit entry commit together
 * (one transaction or batch), so the trail never misses a change and never records one
 * that did not happen.
 */
const actorOf = (caller: Caller) => ({ type: caller.actorType ?? "user", id: caller.uid, name: caller.name });

function audit(tx: Transaction, companyId: string, caller: Caller, action: string, api: KeyApi, projectId: string | null): void {
  tx.create(
    auditLogsCollection(companyId).doc(),
    auditEntry({ class: "privileged", action, actor: actorOf(caller), api, method: null, path: null, status: null, requestId: null, projectId }),
  );
}

/**
 * Serialises key creations per company and API: every creation reads and writes this document,
 * so two concurrent transactions cannot both count 19 active keys and both add one.
 */
const lockRef = (companyId: string, api: KeyApi) => firestore().collection("apiKeyLocks").doc(`${companyId}__${api}`);

async function assertCompany(tx: Transaction, companyId: string): Promise<void> {
  if (!(await tx.get(companyRef(companyId))).exists) throw new KeyAdminError("not-found", "No such company.");
}

export interface NewKey {
  companyId: string;
  api: KeyApi;
  name: string;
  projectId: string | null;
  scopes: string[];
}

export async function createKey(input: NewKey, caller: Caller): Promise<{ key: string; doc: ApiKeyDoc }> {
  const key = generateKey(input.api);
  const hash = hashKey(key);
  return firestore().runTransaction(
    async (tx) => {
      const lock = lockRef(input.companyId, input.api);
      const active = apiKeysCollection().where("companyId", "==", input.companyId).where("api", "==", input.api).where("revokedAt", "==", null);
      const [, activeSnap, project] = await Promise.all([
        tx.get(lock),
        tx.get(active),
        input.projectId ? tx.get(projectRef(input.projectId)) : Promise.resolve(null),
        assertCompany(tx, input.companyId),
      ]);
      if (project) {
        const parsed = project.exists ? parseStored(projectShape, project.ref.path, project.data()) : null;
        if (!isLiveProjectOf(parsed, input.companyId)) {
          throw new KeyAdminError("invalid-argument", "projectId is not a project of this company.");
        }
      }
      if (activeSnap.size >= MAX_ACTIVE_KEYS) {
        throw new KeyAdminError("resource-exhausted", `This company already has ${MAX_ACTIVE_KEYS} active ${input.api} keys; revoke one first.`);
      }
      const now = Timestamp.now();
      const data = newApiKeyData({ ...input, prefix: displayPrefix(key), createdBy: caller.uid }, now);
      tx.create(apiKeysCollection().doc(hash), data);
      tx.set(lock, { updatedAt: now });
      audit(tx, input.companyId, caller, "api_key.created", input.api, input.projectId);
      return { key, doc: parseStored(apiKeyShape, `apiKeys/${hash}`, data) };
    },
    { maxAttempts: 25 },
  );
}

export async function listKeys(companyId: string, api?: KeyApi): Promise<ApiKeyDoc[]> {
  if (!(await companyRef(companyId).get()).exists) throw new KeyAdminError("not-found", "No such company.");
  let query = apiKeysCollection().where("companyId", "==", companyId);
  if (api) query = query.where("api", "==", api);
  const snap = await query.get();
  return snap.docs
    .flatMap((doc) => parseStoredOrNull(apiKeyShape, doc.ref.path, doc.data()) ?? [])
    .sort((a, b) => (b.createdAt?.toMillis() ?? 0) - (a.createdAt?.toMillis() ?? 0));
}

/** Revokes the company's key with this prefix. Revoking a revoked key changes nothing. */
export async function revokeKey(companyId: string, prefix: string, caller: Caller): Promise<{ doc: ApiKeyDoc; alreadyRevoked: boolean }> {
  return firestore().runTransaction(async (tx) => {
    const snap = await tx.get(apiKeysCollection().where("companyId", "==", companyId).where("prefix", "==", prefix));
    const docs = snap.docs.flatMap((d) => {
      const doc = parseStoredOrNull(apiKeyShape, d.ref.path, d.data());
      return doc ? [{ ref: d.ref, doc }] : [];
    });
    if (!docs.length) throw new KeyAdminError("not-found", "No key with this prefix in this company.");
    const live = docs.filter((d) => !d.doc.revokedAt);
    if (!live.length) return { doc: docs[0].doc, alreadyRevoked: true };
    const now = Timestamp.now();
    for (const { ref, doc } of live) {
      tx.update(ref, { revokedAt: now, revokedBy: caller.uid });
      audit(tx, companyId, caller, "api_key.revoked", doc.api, doc.projectId);
    }
    return { doc: { ...live[0].doc, revokedAt: now, revokedBy: caller.uid }, alreadyRevoked: false };
  });
}

const ACCESS_FIELD: Record<KeyApi, string> = { findings: "findingsExport", company: "companyApi" };

export async function setAccess(companyId: string, api: KeyApi, enabled: boolean, caller: Caller): Promise<void> {
  await firestore().runTransaction(async (tx) => {
    await assertCompany(tx, companyId);
    tx.update(companyRef(companyId), { [`apiAccess.${ACCESS_FIELD[api]}`]: enabled });
    audit(tx, companyId, caller, "api_access.changed", api, null);
  });
}
