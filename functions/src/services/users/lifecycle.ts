import { accountSyncFailed } from "../../logs";
import type { AuditOrigin } from "../../repos/auditLogs";
import { findOnRoster, findUser, usersWithEmail, type StoredUser } from "../../repos/users";
import { intendAccountChange, settleAccount, settleLeftover } from "./accountSync";
import { commitChange, commitRemoval } from "./commit";
import {
  assertAddressFree,
  isProtected,
  planRemoval,
  planUpdate,
  type PersonName,
} from "./decisions";
import {
  assertInDomains,
  chooseDepartment,
  chooseRole,
  provisioningSettings,
  type UnmatchedDepartment,
} from "./rules";
import { createFirstAccount, moveAccountEmail } from "./signInAccounts";
import { asUsersError, notFound, protectedAddress, refusalOf, UsersError } from "./userRefusals";

/**
 * The user lifecycle of provisioning, for every adapter (/v1/users, SCIM): invite, update,
 * deactivate, reactivate, remove, with exact seat accounting (the states: decisions.ts).
 * The sign-in account goes with it: removal deletes it, so the address and userName are free
 * again. Knows nothing of HTTP.
 */

export interface UserPatch {
  active?: boolean;
  displayName?: string;
  /** A department name; null clears it. */
  department?: string | null;
  /** A new sign-in address; unique across all companies, within the company's domains. */
  email?: string;
  userName?: string;
  /** Whether the address still follows `userName` (SCIM); left out, an address change ends it. */
  addressFromUserName?: boolean;
  externalId?: string | null;
  /** The name parts to set (undefined: keep; null: clear). */
  name?: Partial<PersonName>;
  /** An identity provider's role value (null: none, so `standard`). */
  idpRole?: string | null;
  /** SCIM attributes the app has no field for, as sent: replaces the stored ones. */
  profile?: Record<string, unknown>;
  /**
   * A full replace (PUT) that did not carry these: kept, or reset if the company made the identity
   * provider their source.
   */
  omitted?: { roles?: boolean; department?: boolean };
}

const lower = (v: string) => v.trim().toLowerCase();

async function applyUpdate(
  companyId: string,
  uid: string,
  patch: UserPatch,
  origin: AuditOrigin,
  unmatched: UnmatchedDepartment,
): Promise<StoredUser> {
  const [current, settings] = await Promise.all([
    findOnRoster(companyId, uid),
    provisioningSettings(companyId),
  ]);
  if (!current) throw notFound();
  await settleLeftover(uid);
  const email = patch.email === undefined ? undefined : lower(patch.email);
  const movesEmail = email !== undefined && email !== current.email;
  // A user without an address gets their sign-in account with the first one (made before the
  // commit, as an invitation's).
  const firstAddress = movesEmail && current.email === null;
  // The account follows the committed roster afterwards, also when nothing changed: repeating a
  // request repairs Auth.
  const own =
    movesEmail || patch.active !== undefined
      ? await intendAccountChange(
          uid,
          companyId,
          firstAddress ? "address" : movesEmail ? "email" : "status",
        )
      : null;
  try {
    if (movesEmail) {
      assertInDomains(settings, email);
      if (isProtected(current)) throw protectedAddress();
      assertAddressFree(await usersWithEmail(email));
      await (
        firstAddress
          ? createFirstAccount(uid, email, patch.displayName ?? current.displayName ?? email)
          : moveAccountEmail(uid, email)
      ).catch((err: unknown) => Promise.reject(asUsersError(err)));
    }
    const department = await chooseDepartment(companyId, patch.department, unmatched, {
      creating: false,
      omittedFromReplace: patch.omitted?.department,
      source: settings.departmentSource,
    });
    // The group map's role is applied by planUpdate from the user the transaction reads.
    const role = chooseRole(settings, patch.idpRole, patch.omitted?.roles);
    const resolved = {
      active: patch.active,
      displayName: patch.displayName,
      email,
      userName: patch.userName,
      addressFromUserName: patch.addressFromUserName,
      externalId: patch.externalId,
      name: patch.name,
      profile: patch.profile,
      department,
      role,
    };
    const { user } = await commitChange(
      companyId,
      uid,
      (stored, now) => planUpdate(stored, resolved, now),
      origin,
    );
    if (own) await settleAccount(uid, { own });
    return user;
  } catch (err) {
    // Auth back to what the roster holds (an address moved before a refused commit); a failure here
    // leaves it to the sweep.
    if (own)
      await settleAccount(uid, { own }).catch((cleanup: unknown) =>
        accountSyncFailed({ uid, step: "settle_after_refusal" }, cleanup),
      );
    throw err;
  }
}

/** Applies a change all or nothing: a refusal leaves the user, seats and audit as they were. */
export const updateUser = (
  companyId: string,
  uid: string,
  patch: UserPatch,
  origin: AuditOrigin,
  unmatched: UnmatchedDepartment = "refuse",
): Promise<StoredUser> =>
  applyUpdate(companyId, uid, patch, origin, unmatched).catch((err: unknown) =>
    Promise.reject(refusalOf(err, uid)),
  );

/**
 * A provider's change, all or nothing except that its deactivation is never lost: when the rest
 * is refused (a taken address or userName, a protected user's address, an address outside the
 * domains), the deactivation alone is applied and the refusal still answered. A provider re-sends
 * the refused request each cycle, so refusing it whole would leave the person able to sign in.
 */
async function updateKeepingDeactivation(
  companyId: string,
  uid: string,
  patch: UserPatch,
  origin: AuditOrigin,
  unmatched: UnmatchedDepartment,
): Promise<StoredUser> {
  try {
    return await updateUser(companyId, uid, patch, origin, unmatched);
  } catch (err) {
    const deactivates = patch.active === false && Object.keys(patch).length > 1;
    if (
      !deactivates ||
      !(err instanceof UsersError) ||
      !["conflict", "username", "protected", "domain"].includes(err.code)
    )
      throw err;
    await updateUser(companyId, uid, { active: false }, origin, unmatched);
    throw err;
  }
}

/**
 * Removes the person from the roster: deactivated if needed (an owner or Key User only while
 * another active owner stays), `createdAt` moved aside, and the sign-in account deleted, which
 * ends every session and frees the address for a later invitation. Records stay.
 * `already`: they were removed before (the account is deleted again, repairing a failed delete).
 */
export async function removeUser(
  companyId: string,
  uid: string,
  origin: AuditOrigin,
): Promise<"removed" | "already"> {
  const user = await findUser(uid);
  // Only the company's own user gets an intent (anyone else is 404 below).
  const own =
    user?.companyId === companyId ? await intendAccountChange(uid, companyId, "removal") : null;
  const outcome = await commitRemoval(companyId, uid, planRemoval, origin).catch((err: unknown) =>
    Promise.reject(refusalOf(err, uid, true)),
  );
  if (own) await settleAccount(uid, { own });
  return outcome;
}

export interface ProvisionedUpdate {
  user: StoredUser;
  /**
   * Set when the owner's or a Key User's address change was left out (for its privileged audit
   * entry).
   */
  refusedAddressOf?: string;
}

/**
 * An identity provider's change: as `updateKeepingDeactivation`, except that an address change of
 * the owner or a Key User is left out instead of refusing the whole change. A provider sends a
 * refused PATCH again at every evaluation, so refusing it whole would hold back its other
 * attributes for ever; the rest is applied and the part left out is reported.
 */
export async function updateProvisionedUser(
  companyId: string,
  uid: string,
  patch: UserPatch,
  origin: AuditOrigin,
  unmatched: UnmatchedDepartment,
): Promise<ProvisionedUpdate> {
  try {
    return { user: await updateKeepingDeactivation(companyId, uid, patch, origin, unmatched) };
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
