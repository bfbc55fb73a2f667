import { Timestamp } from "firebase-admin/firestore";
import { accountSyncFailed } from "../logs";
import { createAccount, deleteAccount, EmailTakenError, setAccountEmail, setSignInAllowed } from "../repos/authAccounts";
import { findCompany } from "../repos/companies";
import {
  commitChange,
  commitInvite,
  departmentsOf,
  findOnRoster,
  seatsLookFull,
  userExists,
  EmailOnRosterError,
  emailOnAnyRoster,
  NotOnRosterError,
  SEATED,
  SeatsExhaustedError,
  type ChangeOrigin,
  type Department,
  type RosterChange,
  type RosterUser,
} from "../repos/roster";
import { DEFAULT_ROLE, mapRole } from "./roles";

/**
 * The user lifecycle of provisioning, for every adapter (/v1/users, SCIM): invite, update,
 * deactivate, reactivate, remove, with exact seat accounting. Knows nothing of HTTP.
 *
 *   (none) --invite--> invited --first sign-in--> active
 *   invited|active --deactivate--> deactivated (seat freed, sign-in disabled, records kept)
 *   deactivated --reactivate--> active if the person signed in before, else invited (takes a seat)
 *   any --remove--> removed (deactivated as above if needed; hidden from the roster)
 */
export class UsersError extends Error {
  constructor(
    readonly kind: "conflict" | "seats" | "not_found" | "unknown_department" | "protected",
    message: string,
    readonly seats?: { capacity: number; used: number },
  ) {
    super(message);
    this.name = "UsersError";
  }
}

/** The SCIM `name` parts, kept beside `displayName`. */
export interface PersonName {
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
}

export interface NewUser {
  email: string;
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
  /** A new e-mail address (sign-in address too); unique across all companies. */
  email?: string;
  externalId?: string | null;
  name?: PersonName;
  /** An identity provider's role value (null: none, so `standard`). */
  idpRole?: string | null;
}

const notFound = () => new UsersError("not_found", "No such user in this company.");

function mapped(err: unknown): unknown {
  if (err instanceof SeatsExhaustedError) {
    return new UsersError("seats", `Seat capacity exhausted: all ${err.capacity} seats of the company are taken (${err.used} in use). Deactivate a user or add seats in the app first.`, { capacity: err.capacity, used: err.used });
  }
  if (err instanceof EmailOnRosterError || err instanceof EmailTakenError) return new UsersError("conflict", "A user with this e-mail address already exists.");
  if (err instanceof NotOnRosterError) return notFound();
  return err;
}

/** The department's id by name (trimmed, case-insensitive); undefined: not given; null: cleared. */
async function departmentId(companyId: string, name: string | null | undefined): Promise<string | null | undefined> {
  if (name === undefined || name === null) return name;
  const wanted = name.trim().toLowerCase();
  const match = (await departmentsOf(companyId)).find((d) => d.name.trim().toLowerCase() === wanted);
  if (!match) throw new UsersError("unknown_department", `No department named "${name.trim().slice(0, 200)}" in this company.`);
  return match.id;
}

/**
 * A silent invite. The Auth account comes first (Auth keeps e-mail addresses unique across
 * concurrent requests); the roster entry, its seat and its audit entry then commit in one
 * transaction. If that transaction refuses or fails, the account is deleted again: nothing is
 * left behind. (Only an instance killed between the two steps can leave an account without a
 * roster entry; telling such an account from a real one safely needs a marker, so none is
 * deleted automatically: see the README.)
 */
export async function inviteUser(companyId: string, input: NewUser, origin: ChangeOrigin): Promise<RosterUser> {
  const email = input.email.trim().toLowerCase();
  const active = input.active !== false;
  const [department, role] = await Promise.all([departmentId(companyId, input.department), roleFor(companyId, input.idpRole)]);
  if (await emailOnAnyRoster(email)) throw mapped(new EmailOnRosterError());
  // Refused early when plainly full, so a refused invitation never creates an account at all.
  const full = active ? await seatsLookFull(companyId) : null;
  if (full) throw mapped(new SeatsExhaustedError(full.capacity, full.used));
  const uid = await createAccount(email, input.displayName, !active).catch((err: unknown) => Promise.reject(mapped(err)));
  try {
    return await commitInvite(
      companyId,
      uid,
      {
        email,
        displayName: input.displayName,
        role,
        status: active ? "invited" : "deactivated",
        deactivatedAt: active ? null : Timestamp.now(),
        departmentId: department ?? null,
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

/**
 * Keeps Firebase Auth in step with the roster as committed. A failure fails the request (logged):
 * repeating it is harmless and repairs Auth, and until then the blocking function refuses the
 * sign-in of anyone the roster does not seat.
 */
async function syncSignIn(user: RosterUser): Promise<void> {
  const allowed = SEATED.includes(user.status ?? "") && !user.removedAt;
  await setSignInAllowed(user.id, allowed).catch((err: unknown) => {
    accountSyncFailed({ uid: user.id, step: allowed ? "enable" : "disable" }, err);
    throw err;
  });
}

/** Provisioning never touches the company's owner or a Key User: that is the app's to do. */
function assertProvisionable(user: RosterUser): void {
  if (user.role === "owner" || user.keyUser) {
    throw new UsersError("protected", "This user is the company's owner or holds the Key User role; change them in the app, not through provisioning.");
  }
}

/** The app role of an IdP role value (`standard` for none). */
async function roleFor(companyId: string, idpRole: string | null | undefined): Promise<string> {
  if (!idpRole) return DEFAULT_ROLE;
  return mapRole((await findCompany(companyId))?.provisioningRoleMap ?? {}, idpRole);
}

/**
 * A new e-mail address goes to the sign-in account first (Auth keeps addresses unique), then to
 * the roster. The roster is the truth: afterwards, whether the transaction committed or failed,
 * the account gets the address the roster holds (so concurrent changes cannot leave them apart).
 */
async function moveSignInEmail(user: RosterUser, email: string): Promise<boolean> {
  if (email === user.email) return false;
  assertProvisionable(user);
  if (await emailOnAnyRoster(email)) throw mapped(new EmailOnRosterError());
  await setAccountEmail(user.id, email).catch((err: unknown) => Promise.reject(mapped(err)));
  return true;
}

async function syncSignInEmail(companyId: string, uid: string, committed?: RosterUser): Promise<void> {
  const user = committed ?? (await findOnRoster(companyId, uid).catch(() => null));
  if (user?.email) await setAccountEmail(uid, user.email).catch((err: unknown) => accountSyncFailed({ uid, step: "sync_email" }, err));
}

const NAME_FIELDS = ["givenName", "familyName", "formattedName"] as const;

export async function updateUser(companyId: string, uid: string, patch: UserPatch, origin: ChangeOrigin): Promise<RosterUser> {
  const email = patch.email?.trim().toLowerCase();
  // An unknown user is 404 before anything about the request's department or e-mail.
  const current = patch.department !== undefined || email !== undefined ? await findOnRoster(companyId, uid) : undefined;
  if (current === null) throw notFound();
  const [department, role] = await Promise.all([
    departmentId(companyId, patch.department),
    patch.idpRole === undefined ? undefined : roleFor(companyId, patch.idpRole),
  ]);
  const moved = current && email !== undefined ? await moveSignInEmail(current, email) : false;
  const decide = (user: RosterUser): RosterChange | null => {
    const fields: Record<string, unknown> = {};
    let seats: RosterChange["seats"] = 0;
    let action = "user.updated";
    const seated = SEATED.includes(user.status ?? "");
    if (patch.active === false && user.status !== "deactivated") {
      // `active` is only reached by signing in: remember it for a later reactivation. A status
      // outside the contract holds no seat and frees none.
      Object.assign(fields, { status: "deactivated", deactivatedAt: Timestamp.now(), ...(user.status === "active" ? { signedInBefore: true } : {}) });
      [seats, action] = [seated ? -1 : 0, "user.deactivated"];
    } else if (patch.active === true && !seated) {
      Object.assign(fields, { status: user.signedInBefore ? "active" : "invited", deactivatedAt: null });
      [seats, action] = [1, "user.reactivated"];
    }
    if (patch.displayName !== undefined && patch.displayName !== user.displayName) fields.displayName = patch.displayName;
    if (department !== undefined && department !== user.departmentId) fields.departmentId = department;
    if (email !== undefined && email !== user.email) fields.email = email;
    if (patch.externalId !== undefined && patch.externalId !== user.externalId) fields.externalId = patch.externalId;
    if (role !== undefined && role !== user.role) fields.role = role;
    for (const field of NAME_FIELDS) if (patch.name && patch.name[field] !== user[field]) fields[field] = patch.name[field];
    if (!Object.keys(fields).length) return null;
    // Refused only when something would change: an identity provider re-sending an owner's state is harmless.
    assertProvisionable(user);
    return { fields, seats, action };
  };
  const { user } = await commitChange(companyId, uid, decide, origin).catch(async (err: unknown) => {
    if (moved) await syncSignInEmail(companyId, uid);
    throw mapped(err);
  });
  if (moved) await syncSignInEmail(companyId, uid, user);
  // From the committed state, also when nothing changed: repeating a request repairs Auth.
  if (patch.active !== undefined) await syncSignIn(user);
  return user;
}

/** Removes the person from the roster; repeating it is harmless. Their records stay. */
export async function removeUser(companyId: string, uid: string, origin: ChangeOrigin): Promise<void> {
  const decide = (user: RosterUser): RosterChange => {
    assertProvisionable(user);
    const seated = SEATED.includes(user.status ?? "");
    const now = Timestamp.now();
    return {
      fields: { removedAt: now, status: "deactivated", ...(user.status !== "deactivated" ? { deactivatedAt: now } : {}) },
      seats: seated ? -1 : 0,
      action: "user.removed",
    };
  };
  let user: RosterUser;
  try {
    ({ user } = await commitChange(companyId, uid, decide, origin));
  } catch (err) {
    if (err instanceof NotOnRosterError && err.removed) return;
    throw mapped(err);
  }
  await syncSignIn(user);
}

/** The name of the user's department, or null. */
export const departmentNameOf = (user: RosterUser, departments: readonly Department[]) => departments.find((d) => d.id === user.departmentId)?.name ?? null;
