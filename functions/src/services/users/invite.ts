import { Timestamp } from "firebase-admin/firestore";
import { accountSyncFailed } from "../../logs";
import type { AuditOrigin } from "../../repos/auditLogs";
import type { NewUserRecord } from "../../repos/userTransaction";
import { usersWithEmail, type StoredUser } from "../../repos/users";
import { abandonInvite, accountForInvite, settleAccount, uidWithoutAccount } from "./accountSync";
import { seatsLookFull } from "./commit";
import { assertAddressFree, type PersonName } from "./decisions";
import { commitInvite, InviteIntentLost } from "./inviteCommit";
import {
  assertInDomains,
  chooseDepartment,
  provisioningSettings,
  roleOfNewUser,
  type UnmatchedDepartment,
} from "./rules";
import { asUsersError, seatsExhausted } from "./userRefusals";

/** An invitation: a new user on the roster, with their sign-in account. */
export interface NewUser {
  /**
   * Null: a SCIM user without an address, stored with no sign-in account until one comes
   * (docs/firestore-data.md, `email`).
   */
  email: string | null;
  /**
   * The SCIM userName (default: the e-mail address); unique within the company, case-insensitively.
   */
  userName?: string;
  /**
   * The address was taken from `userName` (no `emails` sent): a later userName change moves it
   * along.
   */
  addressFromUserName?: boolean;
  displayName: string;
  department?: string | null;
  externalId?: string | null;
  name?: PersonName;
  /** An identity provider's role value, mapped through the company's `provisioningRoleMap`. */
  idpRole?: string | null;
  /** `false` creates the user deactivated: no seat taken, sign-in disabled. */
  active?: boolean;
  /** SCIM attributes the app has no field for, kept as sent (`scimProfile`). */
  profile?: Record<string, unknown>;
  provisionedBy: "api" | "scim";
}

/**
 * A silent invite. The account comes first (none for a user without an address: its intent alone)
 * (Auth keeps e-mail addresses unique across concurrent requests), under a uid whose intent is
 * recorded before it (accountIntents.ts); the roster entry, its seat and its audit entry then
 * commit in one transaction. If that transaction refuses or fails, the invitation is abandoned and
 * its account deleted. An instance stopped in between leaves an account the retry adopts, or the
 * sweep deletes (docs/provisioning-crash-safety.md).
 */
export async function inviteUser(
  companyId: string,
  input: NewUser,
  origin: AuditOrigin,
  unmatched: UnmatchedDepartment = "refuse",
): Promise<StoredUser> {
  const email = input.email === null ? null : input.email.trim().toLowerCase();
  const settings = await provisioningSettings(companyId);
  if (email !== null) assertInDomains(settings, email);
  const active = input.active !== false;
  const department = await chooseDepartment(companyId, input.department, unmatched, {
    creating: true,
    source: settings.departmentSource,
  });
  const userName = input.userName?.trim() || email;
  if (!userName) throw new Error("inviteUser: a user needs an address or a userName");
  const record: NewUserRecord = {
    email,
    userName,
    userNameKey: userName.toLowerCase(),
    displayName: input.displayName,
    ...roleOfNewUser(settings, input.idpRole),
    status: active ? "invited" : "deactivated",
    deactivatedAt: active ? null : Timestamp.now(),
    departmentId: department.id ?? null,
    ...(department.unmatched ? { unmatchedDepartment: department.unmatched } : {}),
    provisionedBy: input.provisionedBy,
    ...(input.externalId ? { externalId: input.externalId } : {}),
    ...(input.addressFromUserName ? { addressFromUserName: true as const } : {}),
    ...(input.name ?? {}),
    ...(input.profile && Object.keys(input.profile).length ? { scimProfile: input.profile } : {}),
  };
  for (let attempt = 1; ; attempt++) {
    if (email !== null) assertAddressFree(await usersWithEmail(email));
    // Refused early when plainly full, so a refused invitation never creates an account at all.
    const full = active ? await seatsLookFull(companyId) : null;
    if (full) throw seatsExhausted(full);
    const uid =
      email === null
        ? await uidWithoutAccount(companyId)
        : await accountForInvite(companyId, email, input.displayName, !active).catch(
            (err: unknown) => Promise.reject(asUsersError(err)),
          );
    let user: StoredUser;
    try {
      user = await commitInvite(companyId, uid, record, origin);
    } catch (err) {
      await abandonInvite(uid).catch((cleanup: unknown) =>
        accountSyncFailed({ uid, step: "abandon_invite" }, cleanup),
      );
      // The account was given up under us (a concurrent failure of the same address): start again.
      if (err instanceof InviteIntentLost && attempt < 3) continue;
      throw err;
    }
    await settleAccount(uid, { writtenBefore: Number.POSITIVE_INFINITY });
    return user;
  }
}
