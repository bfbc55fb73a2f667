import type { KeyApi } from "../lib/apiKeyFormat";
import { hasExpired, type ApiKeyDoc } from "../repos/apiKeys";
import { isLiveProjectOf, type CompanyDoc, type ProjectDoc } from "../repos/companies";

/**
 * The access rules of both API documents, decided from freshly read documents on every
 * request (no cache), so revocation and access switches apply to the very next request.
 */
const UNKNOWN_KEY = "The API key is unknown or has been revoked.";

/**
 * A refused key (`unauthenticated`) or a refused company or project (`forbidden`); the HTTP kernel
 * maps it.
 */
export class AccessError extends Error {
  constructor(
    readonly kind: "unauthenticated" | "forbidden",
    message: string,
  ) {
    super(message);
    this.name = "AccessError";
  }
}

const unauthorized = (message: string) => new AccessError("unauthenticated", message);
const forbidden = (message: string) => new AccessError("forbidden", message);

export function assertKeyUsable(key: ApiKeyDoc | null, api: KeyApi): asserts key is ApiKeyDoc {
  if (!key || key.api !== api) throw unauthorized(UNKNOWN_KEY);
  if (key.revokedAt || hasExpired(key.expiresAt, Date.now())) throw unauthorized(UNKNOWN_KEY);
}

export function assertFindingsAccess(
  key: ApiKeyDoc,
  company: CompanyDoc | null,
  project: ProjectDoc | null,
): void {
  if (company?.apiAccess?.findingsExport !== true) {
    throw forbidden("API access to the findings export is turned off for this company.");
  }
  if (!isLiveProjectOf(project, key.companyId)) {
    throw forbidden("The key's project no longer exists or now belongs to another company.");
  }
}

export function assertCompanyAccess(company: CompanyDoc | null): void {
  if (company?.plan !== "enterprise") {
    throw forbidden("The company API is available on the enterprise plan only.");
  }
  if (company.apiAccess?.companyApi !== true) {
    throw forbidden("API access to the company API is turned off for this company.");
  }
}
