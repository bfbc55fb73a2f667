import { DEFAULT_RATE_LIMITS } from "../config/constants";
import type { KeyApi } from "../lib/apiKeyFormat";
import type { ApiKeyDoc } from "../repos/apiKeys";
import type { Limits } from "../repos/apiKeyUsage";
import { ANY_DOMAIN, ATTRIBUTE_SOURCES, findCompany } from "../repos/companies";
import * as store from "../repos/keyAdmin";
import type { LimitScope } from "../repos/storedFields";
import type { StoredUser } from "../repos/users";
import { effectiveLimits, limitScopeOf, type LimitsWithSource } from "./rateLimit";

/**
 * Who may manage API access and keys (docs/findings-export-api.md, "Authentication"):
 * - turn an API on or off for a company: a platform Admin (Auth custom claim `admin: true`);
 * - create, list, revoke keys: that company's `owner` holding the Key User role, or an Admin.
 * Everyone else is refused with one message, so a caller learns nothing about other companies.
 */
export interface Caller {
  uid: string;
  admin: boolean;
  /** Display name for audit entries. */
  name: string;
  /** How audit entries name the actor: a console user, or the operator command. */
  actorType?: "user" | "system";
  user: StoredUser | null;
}

export class KeyAdminError extends Error {
  constructor(
    readonly code:
      | "permission-denied"
      | "invalid-argument"
      | "not-found"
      | "resource-exhausted"
      | "unauthenticated"
      | "failed-precondition",
    message: string,
  ) {
    super(message);
    this.name = "KeyAdminError";
  }
}

export const DENIED = "You are not allowed to manage API access for this company.";

/** The company's owner who may still use the app (as firestore.rules: active or invited, not deactivated or unknown). */
function isLiveOwner(user: StoredUser | null, companyId: string): user is StoredUser {
  return (
    user?.companyId === companyId &&
    user.role === "owner" &&
    (user.status === "active" || user.status === "invited")
  );
}

export function assertMayManageKeys(caller: Caller, companyId: string): void {
  if (caller.admin) return;
  if (!isLiveOwner(caller.user, companyId) || !caller.user.keyUser)
    throw new KeyAdminError("permission-denied", DENIED);
}

export function assertMaySwitchAccess(caller: Caller): void {
  if (!caller.admin) throw new KeyAdminError("permission-denied", DENIED);
}

/**
 * Company reports from the console (KPI rollup, ESRS): the company's owner, or an Admin, of a
 * company that exists and is on the enterprise plan (the plan the company API and its reports
 * belong to); the permission is checked first, so a caller learns nothing about other companies.
 */
export async function assertMayReport(caller: Caller, companyId: string): Promise<void> {
  if (!caller.admin && !isLiveOwner(caller.user, companyId))
    throw new KeyAdminError(
      "permission-denied",
      "You are not allowed to run reports for this company.",
    );
  const company = await findCompany(companyId);
  if (!company) throw new KeyAdminError("not-found", "No such company.");
  if (company.plan !== "enterprise")
    throw new KeyAdminError(
      "failed-precondition",
      "Company reports are available on the enterprise plan only.",
    );
}

const STORE_ERROR_CODE: Record<store.KeyStoreError["reason"], KeyAdminError["code"]> = {
  company_not_found: "not-found",
  key_not_found: "not-found",
  ambiguous_prefix: "invalid-argument",
  not_company_project: "invalid-argument",
  active_key_limit: "resource-exhausted",
};

/** Runs a key store operation, its refusals as this service's errors. */
export async function mapped<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (err) {
    if (err instanceof store.KeyStoreError)
      throw new KeyAdminError(STORE_ERROR_CODE[err.reason], err.message);
    throw err;
  }
}

export const actorOf = (caller: Caller) => ({
  type: caller.actorType ?? "user",
  id: caller.uid,
  name: caller.name,
});

export function createKey(
  input: store.NewKey,
  caller: Caller,
): Promise<{ key: string; doc: ApiKeyDoc }> {
  assertMayManageKeys(caller, input.companyId);
  return mapped(store.createKey(input, actorOf(caller)));
}

export function listKeys(
  companyId: string,
  api: KeyApi | undefined,
  caller: Caller,
): Promise<ApiKeyDoc[]> {
  assertMayManageKeys(caller, companyId);
  return mapped(store.listKeys(companyId, api));
}

export function revokeKey(
  companyId: string,
  prefix: string,
  caller: Caller,
): Promise<{ doc: ApiKeyDoc; alreadyRevoked: boolean }> {
  assertMayManageKeys(caller, companyId);
  return mapped(store.revokeKey(companyId, prefix, actorOf(caller)));
}

export function setAccess(
  companyId: string,
  api: KeyApi,
  enabled: boolean,
  caller: Caller,
): Promise<void> {
  assertMaySwitchAccess(caller);
  return mapped(store.setAccess(companyId, api, enabled, actorOf(caller)));
}

/**
 * The operator's rate-limit override of a company (company-wide or for one scope's keys, which
 * survives key rotation) or of one key (operator CLI: an Admin caller).
 */
export function setRateLimits(
  companyId: string,
  prefix: string | undefined,
  limits: Partial<Limits> | null,
  caller: Caller,
  scope?: LimitScope,
): Promise<void> {
  assertMaySwitchAccess(caller);
  return mapped(store.setRateLimits(companyId, prefix, limits, actorOf(caller), scope));
}

/** The company's keys as `listKeys` gives them, each with its effective limits and their source. */
export async function listKeysWithLimits(
  companyId: string,
  api: KeyApi | undefined,
  caller: Caller,
): Promise<Array<{ doc: ApiKeyDoc; rateLimits: LimitsWithSource }>> {
  const [docs, company] = await Promise.all([
    listKeys(companyId, api, caller),
    findCompany(companyId),
  ]);
  return docs.map((doc) => ({
    doc,
    rateLimits: effectiveLimits(
      DEFAULT_RATE_LIMITS,
      company?.rateLimits,
      doc.rateLimits,
      limitScopeOf(doc.scopes),
    ),
  }));
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The operator's provisioning settings of a company: its e-mail domains (null: none, so no
 * provisioning; `["*"]`: any domain)
 * and who owns roles and departments (`app` or `identityProvider`). Operator only.
 */
export function setProvisioning(
  companyId: string,
  change: store.ProvisioningChange,
  caller: Caller,
): Promise<void> {
  assertMaySwitchAccess(caller);
  const domains = change.provisioningDomains?.map((d) => d.trim().toLowerCase());
  const bad = domains?.find((d) => !DOMAIN.test(d) && !(d === ANY_DOMAIN && domains.length === 1));
  if (bad !== undefined)
    throw new KeyAdminError(
      "invalid-argument",
      `"${bad.slice(0, 100)}" is not a domain name (e.g. contoso.example).`,
    );
  for (const source of [change.provisioningRolesSource, change.provisioningDepartmentSource]) {
    if (source !== undefined && !(ATTRIBUTE_SOURCES as readonly string[]).includes(source))
      throw new KeyAdminError("invalid-argument", 'A source is "app" or "identityProvider".');
  }
  return mapped(
    store.setProvisioning(
      companyId,
      { ...change, ...(domains ? { provisioningDomains: [...new Set(domains)] } : {}) },
      actorOf(caller),
    ),
  );
}
