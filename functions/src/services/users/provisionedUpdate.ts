import type { AuditOrigin } from "../../repos/auditLogs";
import { findOnRoster, type StoredUser } from "../../repos/users";
import { notFound, UsersError } from "./errors";
import { updateUser, type UserPatch } from "./lifecycle";
import type { UnmatchedDepartment } from "./rules";

export interface ProvisionedUpdate {
  user: StoredUser;
  /**
   * Set when the owner's or a Key User's address change was left out (for its privileged audit
   * entry).
   */
  refusedAddressOf?: string;
}

/**
 * An identity provider's change: as `updateUser`, except that an address change of the owner or
 * a Key User is left out instead of refusing the whole change. A provider sends a refused PATCH
 * again at every evaluation, so refusing it whole would hold back its other attributes for ever;
 * the rest is applied and the part left out is reported. Every other refusal refuses the whole.
 */
export async function updateProvisionedUser(
  companyId: string,
  uid: string,
  patch: UserPatch,
  origin: AuditOrigin,
  unmatched: UnmatchedDepartment,
): Promise<ProvisionedUpdate> {
  try {
    return { user: await updateUser(companyId, uid, patch, origin, unmatched) };
  } catch (err) {
    if (!(err instanceof UsersError) || err.refused?.kind !== "address_change") throw err;
    const rest: UserPatch = { ...patch };
    delete rest.email;
    delete rest.addressFromUserName;
    const user = Object.keys(rest).length
      ? await updateUser(companyId, uid, rest, origin, unmatched)
      : await findOnRoster(companyId, uid);
    if (!user) throw notFound();
    return { user, refusedAddressOf: uid };
  }
}
