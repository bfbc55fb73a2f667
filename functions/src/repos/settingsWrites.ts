import { FieldValue } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import type { KeyApi } from "../lib/apiKeyFormat";
import type { Limits } from "./apiKeyUsage";
import { stageChangeEntry, type AuditActor, type AuditTarget } from "./auditLogs";
import type { LimitScope } from "./companies";
import { companyRef } from "./companies";
import { assertCompany, KeyStoreError, keysWithPrefix } from "./keyWrites";
import { isMap } from "./stored";

/**
 * The operator's and the Admin's writes of a company's settings (API access, rate-limit
 * overrides, provisioning), each with its privileged audit entry in the same transaction.
 */

const ACCESS_FIELD: Record<KeyApi, string> = { findings: "findingsExport", company: "companyApi" };

export async function storeApiAccess(
  companyId: string,
  api: KeyApi,
  enabled: boolean,
  actor: AuditActor,
): Promise<void> {
  await firestore().runTransaction(async (tx) => {
    await assertCompany(tx, companyId);
    tx.update(companyRef(companyId), { [`apiAccess.${ACCESS_FIELD[api]}`]: enabled });
    stageChangeEntry(tx, companyId, actor, {
      action: "api_access.changed",
      api,
      enabled,
      projectId: null,
      target: { type: "company", id: companyId },
    });
  });
}

/**
 * Sets the operator's rate-limit override of a company (company-wide, or for the keys of one
 * `scope`), or of one of its keys when `prefix` is given: the fields given replace theirs, the
 * others stay; null clears that override (a company-wide clear keeps the scopes'). A stored
 * value that is not a map is replaced whole. A privileged audit entry commits with the change.
 */
export async function storeRateLimits(
  companyId: string,
  prefix: string | undefined,
  limits: Partial<Limits> | null,
  actor: AuditActor,
  scope?: LimitScope,
): Promise<void> {
  await firestore().runTransaction(async (tx) => {
    const companySnap = await tx.get(companyRef(companyId));
    if (!companySnap.exists) throw new KeyStoreError("company_not_found", "No such company.");
    let ref = companyRef(companyId);
    let stored: unknown = companySnap.get("rateLimits");
    let path = scope ? `rateLimits.${scope}` : "rateLimits";
    if (scope) stored = isMap(stored) ? stored[scope] : undefined;
    let target: AuditTarget = { type: "company", id: companyId };
    let api: KeyApi | null = null;
    if (prefix) {
      const keys = await keysWithPrefix(tx, companyId, prefix);
      if (!keys.length)
        throw new KeyStoreError("key_not_found", "No key with this prefix in this company.");
      if (keys.length > 1)
        throw new KeyStoreError(
          "ambiguous_prefix",
          `The prefix ${prefix} matches ${keys.length} keys; revoke and replace one of them first.`,
        );
      ref = keys[0].ref;
      target = { type: "api_key", id: prefix };
      api = keys[0].doc.api;
      stored = keys[0].doc.rateLimits;
      path = "rateLimits";
    }
    tx.update(ref, limitFields(path, limits, isMap(stored), !scope && !prefix));
    stageChangeEntry(tx, companyId, actor, {
      action: "rate_limits.changed",
      api,
      projectId: null,
      target,
    });
  });
}

/**
 * The update of one override map at `path`: fields into a map, or the whole map when it is not one.
 */
function limitFields(
  path: string,
  limits: Partial<Limits> | null,
  storedIsMap: boolean,
  keepScopes: boolean,
): Record<string, unknown> {
  if (!storedIsMap) return { [path]: limits ?? FieldValue.delete() };
  const fields = limits ?? (keepScopes ? { perMinute: undefined, perDay: undefined } : null);
  if (!fields) return { [path]: FieldValue.delete() };
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [`${path}.${k}`, v ?? FieldValue.delete()]),
  );
}

/**
 * The operator's provisioning settings of a company (docs/firestore-data.md); a field given as null
 * is removed.
 */
export interface ProvisioningChange {
  provisioningDomains?: string[] | null;
  provisioningRolesSource?: string;
  provisioningDepartmentSource?: string;
}

export async function storeProvisioning(
  companyId: string,
  change: ProvisioningChange,
  actor: AuditActor,
): Promise<void> {
  await firestore().runTransaction(async (tx) => {
    await assertCompany(tx, companyId);
    tx.update(
      companyRef(companyId),
      Object.fromEntries(
        Object.entries(change).map(([k, v]) => [k, v === null ? FieldValue.delete() : v]),
      ),
    );
    stageChangeEntry(tx, companyId, actor, {
      action: "provisioning_settings.changed",
      api: "company",
      projectId: null,
      target: { type: "company", id: companyId },
    });
  });
}
