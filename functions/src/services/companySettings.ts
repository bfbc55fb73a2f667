import type { KeyApi } from "../lib/apiKeyFormat";
import type { Limits } from "../repos/apiKeyUsage";
import type { LimitScope } from "../repos/companies";
import { ANY_DOMAIN, ATTRIBUTE_SOURCES } from "../repos/companies";
import {
  storeApiAccess,
  storeProvisioning,
  storeRateLimits,
  type ProvisioningChange,
} from "../repos/settingsWrites";
import { actorOf, assertMaySwitchAccess, KeyAdminError, mapped, type Caller } from "./adminAccess";

export function setAccess(
  companyId: string,
  api: KeyApi,
  enabled: boolean,
  caller: Caller,
): Promise<void> {
  assertMaySwitchAccess(caller);
  return mapped(storeApiAccess(companyId, api, enabled, actorOf(caller)));
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
  return mapped(storeRateLimits(companyId, prefix, limits, actorOf(caller), scope));
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * The operator's provisioning settings of a company: its e-mail domains (null: none, so no
 * provisioning; `["*"]`: any domain)
 * and who owns roles and departments (`app` or `identityProvider`). Operator only.
 */
export function setProvisioning(
  companyId: string,
  change: ProvisioningChange,
  caller: Caller,
): Promise<void> {
  assertMaySwitchAccess(caller);
  const domains = change.provisioningDomains?.map((d) => d.trim().toLowerCase());
  const bad = domains?.find((d) => !DOMAIN.test(d) && !(d === ANY_DOMAIN && domains.length === 1));
  if (bad !== undefined)
    throw new KeyAdminError(
      "invalid_input",
      `"${bad.slice(0, 100)}" is not a domain name (e.g. contoso.example).`,
    );
  for (const source of [change.provisioningRolesSource, change.provisioningDepartmentSource]) {
    if (source !== undefined && !(ATTRIBUTE_SOURCES as readonly string[]).includes(source))
      throw new KeyAdminError("invalid_input", 'A source is "app" or "identityProvider".');
  }
  return mapped(
    storeProvisioning(
      companyId,
      { ...change, ...(domains ? { provisioningDomains: [...new Set(domains)] } : {}) },
      actorOf(caller),
    ),
  );
}
