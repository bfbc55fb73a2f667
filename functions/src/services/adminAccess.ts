import { verifiedEmails } from "../repos/authAccounts";
import { findCompany } from "../repos/companies";
import { KeyStoreError } from "../repos/keyWrites";
import { findUsers, type StoredUser } from "../repos/users";

/**
 * Who may manage API access and keys (docs/findings-export-api.md, "Authentication"):
 * - turn an API on or off for a company: a platform Admin (Auth custom claim `admin: true`);
 * - create, list, revoke keys: that company's `owner` holding the Key User role, or an Admin.
 * Everyone else is refused with one message, so a caller learns nothing about other companies.
 */
export interface Caller {
  uid: string;
  admin: boolean;
  /** How audit entries name the actor: personName, never a field the person can edit. */
  name: string;
  /** How audit entries name the actor: a console user, or the operator command. */
  actorType?: "user" | "system";
  user: StoredUser | null;
}

/**
 * Why the service refused (its own closed list; the console's callables and the operator
 * command map it).
 */
export class KeyAdminError extends Error {
  constructor(
    readonly code:
      "forbidden" | "invalid_input" | "not_found" | "limit_reached" | "too_soon" | "plan_required",
    message: string,
  ) {
    super(message);
    this.name = "KeyAdminError";
  }
}

const DENIED = "You are not allowed to manage API access for this company.";

/**
 * The company's owner who may still use the app (as firestore.rules: active or invited, not
 * deactivated or unknown).
 */
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
    throw new KeyAdminError("forbidden", DENIED);
}

export function assertMaySwitchAccess(caller: Caller): void {
  if (!caller.admin) throw new KeyAdminError("forbidden", DENIED);
}

/**
 * Company reports from the console (KPI rollup, ESRS): the company's owner, or an Admin, of a
 * company that exists and is on the enterprise plan (the plan the company API and its reports
 * belong to); the permission is checked first, so a caller learns nothing about other companies.
 */
export async function assertMayReport(caller: Caller, companyId: string): Promise<void> {
  if (!caller.admin && !isLiveOwner(caller.user, companyId))
    throw new KeyAdminError("forbidden", "You are not allowed to run reports for this company.");
  const company = await findCompany(companyId);
  if (!company) throw new KeyAdminError("not_found", "No such company.");
  if (company.plan !== "enterprise")
    throw new KeyAdminError(
      "plan_required",
      "Company reports are available on the enterprise plan only.",
    );
}

const STORE_ERROR_CODE: Record<KeyStoreError["reason"], KeyAdminError["code"]> = {
  company_not_found: "not_found",
  key_not_found: "not_found",
  ambiguous_prefix: "invalid_input",
  not_company_project: "invalid_input",
  active_key_limit: "limit_reached",
};

/** Runs a key store operation, its refusals as this service's errors. */
export async function mapped<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (err) {
    if (err instanceof KeyStoreError)
      throw new KeyAdminError(STORE_ERROR_CODE[err.reason], err.message);
    throw err;
  }
}

/**
 * How the console names a person (audit actors, key creators) from what they cannot edit
 * themselves: the API-owned `email` of their user document, else the e-mail address Auth has
 * verified (a platform Admin has no user document), else their uid. Never `displayName`, which
 * the person edits in the app (firestore.rules).
 */
export function personName(
  uid: string,
  user: StoredUser | null,
  verifiedEmail: string | undefined,
  admin = false,
): string {
  const email = user?.email ?? verifiedEmail;
  if (email) return admin ? `${email} (platform Admin)` : email;
  return admin ? `Platform Admin ${uid}` : uid;
}

/** personName of each of these people, by uid: user documents in one read, Auth for the rest. */
export async function peopleNames(uids: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(uids)].filter((id) => id.length > 0 && id.length <= 128);
  const users = new Map((await findUsers(ids)).map((u) => [u.id, u]));
  const verified = await verifiedEmails(ids.filter((id) => !users.get(id)?.email));
  return new Map(ids.map((id) => [id, personName(id, users.get(id) ?? null, verified.get(id))]));
}

export const actorOf = (caller: Caller) => ({
  type: caller.actorType ?? "user",
  id: caller.uid,
  name: caller.name,
});
