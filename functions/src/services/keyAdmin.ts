import type { UserDoc } from "../repos/users";

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
  user: UserDoc | null;
}

export class KeyAdminError extends Error {
  constructor(
    readonly code: "permission-denied" | "invalid-argument" | "not-found" | "resource-exhausted" | "unauthenticated",
    message: string,
  ) {
    super(message);
    this.name = "KeyAdminError";
  }
}

export const DENIED = "You are not allowed to manage API access for this company.";

/** The company's owner who may still use the app (as firestore.rules: active or invited, not deactivated or unknown). */
function isLiveOwner(user: UserDoc | null, companyId: string): user is UserDoc {
  return user?.companyId === companyId && user.role === "owner" && (user.status === "active" || user.status === "invited");
}

export function assertMayManageKeys(caller: Caller, companyId: string): void {
  if (caller.admin) return;
  if (!isLiveOwner(caller.user, companyId) || !caller.user.keyUser) throw new KeyAdminError("permission-denied", DENIED);
}

export function assertMaySwitchAccess(caller: Caller): void {
  if (!caller.admin) throw new KeyAdminError("permission-denied", DENIED);
}

/** Active (unrevoked) keys a company may hold per API. */
export const MAX_ACTIVE_KEYS = 20;

/** Company reports from the console (KPI rollup, ESRS): the company's owner, or an Admin. */
export function assertMayReport(caller: Caller, companyId: string): void {
  if (caller.admin) return;
  if (!isLiveOwner(caller.user, companyId)) throw new KeyAdminError("permission-denied", "You are not allowed to run reports for this company.");
}
