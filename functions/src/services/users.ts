import { FieldValue, Timestamp } from "firebase-admin/firestore";
import { accountSyncFailed } from "../logs";
import { deleteAccount, EmailTakenError, revokeSessions, setAccountEmail } from "../repos/authAccounts";
import { commitChange, commitInvite, seatsLookFull, NotOnRosterError, SEATED, SeatsExhaustedError, type ChangeOrigin, type RosterChange, type RosterUser } from "../repos/roster";
import { emailHeld, findOnRoster, userExists } from "../repos/rosterLookup";
import { createAccountFor, syncSignIn, syncSignInEmail } from "./signInAccounts";
import { assertInDomains, chooseDepartment, chooseRole, isProtected, mapped, notFound, protectedAddress, provisioningSettings, UsersError, type UnmatchedDepartment } from "./userRules";

export { departmentNameOf, UsersError } from "./userRules";

/**
 * The user lifecycle of provisioning, for every adapter (/v1/users, SCIM): invite, update,
 * deactivate, reactivate, remove, with exact seat accounting. Knows nothing of HTTP.
 *
 *   (none) --invite--> invited --first sign-in--> active
 *   invited|active --deactivate--> deactivated (seat freed, sign-in disabled, records kept)
 *   deactivated --reactivate--> active if the person signed in before, else invited (takes a seat)
 *   any --remove--> removed (deactivated as above if needed; sign-in account deleted, so the
 *                   address and userName are free again; the user document and records stay)
 */

/** The SCIM `name` parts, kept beside `displayName`. */
export interface PersonName {
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
}

export interface NewUser {
  email: string;
  /** The SCIM userName (default: the e-mail address); unique within the company, case-insensitively. */
  userName?: string;
  displayName: string;
  department?: string | null;
  externalId?: string | null;
  name?: PersonName;
  /** An identity provider's role value, mapped through the company's `provisioningRoleMap`. */
  idpRole?: string | null;
  /** `false` creates the user deactivated: no seat taken, sign-in disabled. */
  active?: boolean;
  provisionedBy: "api" | "scim";
}

export interface UserPatch {
  active?: boolean;
  displayName?: string;
  /** A department name; null clears it. */
  department?: string | null;
  /** A new sign-in address; unique across all companies, within the company's domains. */
  email?: string;
  userName?: string;
  externalId?: string | null;
  name?: PersonName;
  /** An identity provider's role value (null: none, so `standard`). */
  idpRole?: string | null;
  /** A full replace (PUT) that did not carry these: kept, or reset if the company made the identity provider their source. */
  omitted?: { roles?: boolean; department?: boolean };
}

const lower = (v: string) => v.trim().toLowerCase();

/**
 * A silent invite. The Auth account comes first (Auth keeps e-mail addresses unique across
 * concurrent requests); the roster entry, its seat and its audit entry then commit in one
 * transaction. If that transaction refuses or fails, the account is deleted again: nothing is
 * left behind. (Only an instance killed between the two steps can leave an account without a
 * roster entry; telling such an account from a real one safely needs a marker, so none is
 * deleted automatically: see docs/api-behaviour.md.)
 */
export async function inviteUser(companyId: string, input: NewUser, origin: ChangeOrigin, unmatched: UnmatchedDepartment = "refuse"): Promise<RosterUser> {
  const email = lower(input.email);
  const settings = await provisioningSettings(companyId);
  assertInDomains(settings, email);
  const active = input.active !== false;
  const department = await chooseDepartment(companyId, input.department, unmatched, { creating: true, source: settings.departmentSource });
  const userName = input.userName?.trim() || email;
  if (await emailHeld(email)) throw mapped(new EmailTakenError());
  // Refused early when plainly full, so a refused invitation never creates an account at all.
  const full = active ? await seatsLookFull(companyId) : null;
  if (full) throw mapped(new SeatsExhaustedError(full.capacity, full.used));
  const uid = await createAccountFor(email, input.displayName, !active).catch((err: unknown) => Promise.reject(mapped(err)));
  try {
    return await commitInvite(
      companyId,
      uid,
      {
        email,
        userName,
        userNameKey: userName.toLowerCase(),
        displayName: input.displayName,
        role: chooseRole(settings, input.idpRole ?? null),
        status: active ? "invited" : "deactivated",
        deactivatedAt: active ? null : Timestamp.now(),
        departmentId: department.id ?? null,
        ...(department.unmatched ? { unmatchedDepartment: department.unmatched } : {}),
        provisionedBy: input.provisionedBy,
        ...(input.externalId ? { externalId: input.externalId } : {}),
        ...(input.name ?? {}),
      },
      origin,
    );
  } catch (err) {
    // A transaction can fail after committing (e.g. a deadline): delete only an account with no user.
    const committed = await userExists(uid).catch(() => true);
    if (!committed) await deleteAccount(uid).catch((cleanup: unknown) => accountSyncFailed({ uid, step: "delete_after_failed_invite" }, cleanup));
    throw mapped(err);
  }
}

const NAME_FIELDS = ["givenName", "familyName", "formattedName"] as const;

async function applyUpdate(companyId: string, uid: string, patch: UserPatch, origin: ChangeOrigin, unmatched: UnmatchedDepartment): Promise<RosterUser> {
  const [current, settings] = await Promise.all([findOnRoster(companyId, uid), provisioningSettings(companyId)]);
  if (!current) throw notFound();
  const email = patch.email === undefined ? undefined : lower(patch.email);
  const movesEmail = email !== undefined && email !== current.email;
  if (movesEmail) {
    assertInDomains(settings, email);
    if (isProtected(current)) throw protectedAddress();
    if (await emailHeld(email)) throw mapped(new EmailTakenError());
    await setAccountEmail(uid, email).catch((err: unknown) => Promise.reject(mapped(err)));
  }
  const department = await chooseDepartment(companyId, patch.department, unmatched, { creating: false, omittedFromReplace: patch.omitted?.department, source: settings.departmentSource });
  const role = chooseRole(settings, patch.idpRole, patch.omitted?.roles);
  const decide = (user: RosterUser): RosterChange | null => {
    const fields: Record<string, unknown> = {};
    let [seats, action, needsOtherOwner]: [RosterChange["seats"], string, boolean] = [0, "user.updated", false];
    const seated = SEATED.includes(user.status ?? "");
    if (patch.active === false && user.status !== "deactivated") {
      // `active` is only reached by signing in: remember it for a later reactivation. A status
      // outside the contract holds no seat and frees none.
      Object.assign(fields, { status: "deactivated", deactivatedAt: Timestamp.now(), ...(user.status === "active" ? { signedInBefore: true } : {}) });
      [seats, action, needsOtherOwner] = [seated ? -1 : 0, "user.deactivated", isProtected(user)];
    } else if (patch.active === true && !seated) {
      Object.assign(fields, { status: user.signedInBefore ? "active" : "invited", deactivatedAt: null });
      [seats, action] = [1, "user.reactivated"];
    }
    if (patch.displayName !== undefined && patch.displayName !== user.displayName) fields.displayName = patch.displayName;
    if (department.id !== undefined && department.id !== user.departmentId) fields.departmentId = department.id;
    if (department.unmatched !== undefined && department.unmatched !== user.unmatchedDepartment) fields.unmatchedDepartment = department.unmatched;
    if (email !== undefined && email !== user.email) {
      if (isProtected(user)) throw protectedAddress();
      fields.email = email;
      // A user from before `userName` was kept was named by their address: the name stays.
      if (user.userName === null && patch.userName === undefined && user.email) Object.assign(fields, { userName: user.email, userNameKey: user.email });
    }
    if (patch.userName !== undefined && patch.userName !== (user.userName ?? user.email)) {
      Object.assign(fields, { userName: patch.userName, ...(lower(patch.userName) !== user.userNameKey ? { userNameKey: lower(patch.userName) } : {}) });
    }
    if (patch.externalId !== undefined && patch.externalId !== user.externalId) fields.externalId = patch.externalId;
    // The role of the owner and of Key Users is the app's alone: a value sent for them is not applied.
    if (role !== undefined && role !== user.role && !isProtected(user)) fields.role = role;
    for (const field of NAME_FIELDS) if (patch.name && patch.name[field] !== user[field]) fields[field] = patch.name[field];
    return Object.keys(fields).length ? { fields, seats, action, needsOtherOwner } : null;
  };
  const { user } = await commitChange(companyId, uid, decide, origin).catch(async (err: unknown) => {
    if (movesEmail) await syncSignInEmail(companyId, uid);
    throw mapped(err);
  });
  if (movesEmail) {
    await syncSignInEmail(companyId, uid, user);
    await revokeSessions(uid);
  }
  // From the committed state, also when nothing changed: repeating a request repairs Auth.
  if (patch.active !== undefined) await syncSignIn(user);
  return user;
}

/**
 * Applies a change all or nothing, except that a deactivation is never lost: when the rest of
 * the request is refused (a taken address or userName, a protected user's address, an unknown
 * department for /v1), the deactivation alone is applied and the refusal is still answered.
 */
export async function updateUser(companyId: string, uid: string, patch: UserPatch, origin: ChangeOrigin, unmatched: UnmatchedDepartment = "refuse"): Promise<RosterUser> {
  try {
    return await applyUpdate(companyId, uid, patch, origin, unmatched);
  } catch (err) {
    const deactivates = patch.active === false && Object.keys(patch).length > 1;
    if (!deactivates || !(err instanceof UsersError) || !["conflict", "username", "protected", "domain", "unknown_department"].includes(err.kind)) throw err;
    await applyUpdate(companyId, uid, { active: false }, origin, unmatched);
    throw err;
  }
}

/**
 * Removes the person from the roster: deactivated if needed (an owner or Key User only while
 * another active owner stays), `createdAt` moved aside, and the sign-in account deleted, which
 * ends every session and frees the address for a later invitation. Records stay.
 * `already`: they were removed before (the account is deleted again, repairing a failed delete).
 */
export async function removeUser(companyId: string, uid: string, origin: ChangeOrigin): Promise<"removed" | "already"> {
  const decide = (user: RosterUser): RosterChange => {
    const seated = SEATED.includes(user.status ?? "");
    const now = Timestamp.now();
    return {
      fields: {
        removedAt: now,
        status: "deactivated",
        ...(user.status !== "deactivated" ? { deactivatedAt: now } : {}),
        createdAt: FieldValue.delete(),
        removedCreatedAt: user.createdAt,
      },
      seats: seated ? -1 : 0,
      action: "user.removed",
      needsOtherOwner: isProtected(user) && user.status !== "deactivated",
    };
  };
  let outcome: "removed" | "already" = "removed";
  try {
    await commitChange(companyId, uid, decide, origin);
  } catch (err) {
    if (!(err instanceof NotOnRosterError && err.removed)) throw mapped(err);
    outcome = "already";
  }
  await deleteAccount(uid).catch((err: unknown) => {
    accountSyncFailed({ uid, step: "delete_removed" }, err);
    throw err;
  });
  return outcome;
}
