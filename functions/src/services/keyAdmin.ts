import { DEFAULT_RATE_LIMITS } from "../config/constants";
import type { KeyApi } from "../lib/apiKeyFormat";
import type { ApiKeyDoc } from "../repos/apiKeys";
import { findCompany } from "../repos/companies";
import { insertKey, readCompanyKeys, storeRevocation, type NewKey } from "../repos/keyWrites";
import { actorOf, assertMayManageKeys, mapped, type Caller } from "./adminAccess";
import { effectiveLimits, limitScopeOf, type LimitsWithSource } from "./rateLimit";

/** Key management for the console and the operator command: who may, then the write. */
export function createKey(input: NewKey, caller: Caller): Promise<{ key: string; doc: ApiKeyDoc }> {
  assertMayManageKeys(caller, input.companyId);
  return mapped(insertKey(input, actorOf(caller)));
}

export function listKeys(
  companyId: string,
  api: KeyApi | undefined,
  caller: Caller,
): Promise<ApiKeyDoc[]> {
  assertMayManageKeys(caller, companyId);
  return mapped(readCompanyKeys(companyId, api));
}

export function revokeKey(
  companyId: string,
  prefix: string,
  caller: Caller,
): Promise<{ doc: ApiKeyDoc; alreadyRevoked: boolean }> {
  assertMayManageKeys(caller, companyId);
  return mapped(storeRevocation(companyId, prefix, actorOf(caller)));
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
