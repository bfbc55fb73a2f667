import type { Timestamp } from "firebase-admin/firestore";
import type { StoredSeats, UserStatus, UserUpdate } from "../../repos/userTransaction";
import type { StoredUser } from "../../repos/users";
import type { DepartmentChoice, RoleChoice } from "./rules";
import {
  addressTaken,
  lastOwner,
  protectedAddress,
  seatsExhausted,
  userNameTaken,
  type Seats,
} from "./userRefusals";

/**
 * The decisions of the user lifecycle, as pure functions of what the transaction read: seats,
 * uniqueness of addresses and userNames, the last owner, and what a change writes.
 *
 *   (none) --invite--> invited --first sign-in--> active
 *   invited|active --deactivate--> deactivated (seat freed, sign-in disabled, records kept)
 *   deactivated --reactivate--> active if the person signed in before, else invited (takes a seat)
 *   any --remove--> removed (deactivated as above if needed; the user document and records stay)
 */

/**
 * Statuses that hold a seat: the company's `seatsUsed` always equals the number of such users not
 * removed.
 */
export const SEATED: readonly UserStatus[] = ["invited", "active"];
export const isSeated = (status: string | null) => SEATED.includes(status as UserStatus);

/**
 * The company's owner and Key Users: provisioning never changes their role or sign-in address, and
 * deactivates them only while another owner stays.
 */
export const isProtected = (user: StoredUser) => user.role === "owner" || user.keyUser;

/**
 * The seats as stored: a missing or negative capacity is none. `used` is null when the counter
 * cannot be trusted (unreadable, or a change of `delta` would take it below zero: it drifted)
 * and must be recounted from the roster.
 */
export function seatsFrom(
  stored: StoredSeats,
  delta = 0,
): { capacity: number; used: number | null } {
  const capacity =
    stored.seatCapacity !== null && stored.seatCapacity >= 0 ? Math.floor(stored.seatCapacity) : 0;
  const used = stored.seatsUsed;
  return {
    capacity,
    used: used !== null && Number.isInteger(used) && used >= 0 && used + delta >= 0 ? used : null,
  };
}

export function assertSeatFree(seats: Seats): void {
  if (seats.used >= seats.capacity) throw seatsExhausted(seats);
}

/** Whether `user` holds its address and userName against `uid`: removed users hold nothing. */
const holdsAgainst = (user: StoredUser, uid: string) => user.id !== uid && !user.removedAt;

/**
 * An e-mail address belongs to at most one user not removed, of any company (it is a sign-in
 * address).
 */
export function assertAddressFree(withAddress: readonly StoredUser[], uid = ""): void {
  if (withAddress.some((u) => holdsAgainst(u, uid))) throw addressTaken();
}

/**
 * A userName belongs to at most one of the company's users not removed; users from before
 * `userNameKey` hold their e-mail address as it (`withKeyAsAddress`: users whose address is the
 * key).
 */
export function assertUserNameFree(
  companyId: string,
  uid: string,
  withKey: readonly StoredUser[],
  withKeyAsAddress: readonly StoredUser[],
): void {
  const legacy = (u: StoredUser) => u.companyId === companyId && u.userNameKey === null;
  if (
    withKey.some((u) => holdsAgainst(u, uid)) ||
    withKeyAsAddress.some((u) => legacy(u) && holdsAgainst(u, uid))
  )
    throw userNameTaken();
}

/**
 * Refuses unless an owner other than `uid` stays active (`activeOwners` read in the transaction, so
 * two owners cannot both leave).
 */
export function assertOtherActiveOwner(activeOwners: readonly StoredUser[], uid: string): void {
  if (!activeOwners.some((u) => holdsAgainst(u, uid))) throw lastOwner();
}

/**
 * What a change writes, the seat it takes (+1) or frees (-1), its audit action, and whether another
 * active owner must stay.
 */
export interface PlannedChange {
  update: UserUpdate;
  seats: -1 | 0 | 1;
  action: string;
  needsOtherOwner: boolean;
}

/** The SCIM `name` parts, kept beside `displayName`. */
export interface PersonName {
  givenName: string | null;
  familyName: string | null;
  formattedName: string | null;
}

/** A request's change with its department and role already resolved (undefined: keep). */
export interface ResolvedPatch {
  active?: boolean;
  displayName?: string;
  /** Lower-cased. */
  email?: string;
  userName?: string;
  addressFromUserName?: boolean;
  externalId?: string | null;
  name?: Partial<PersonName>;
  profile?: Record<string, unknown>;
  department: DepartmentChoice;
  /** The role the group map gives (null: none any more); undefined: membership unchanged. */
  groupRole?: string | null;
  role?: RoleChoice;
}

const lower = (v: string) => v.trim().toLowerCase();
const NAME_FIELDS = ["givenName", "familyName", "formattedName"] as const;

/**
 * The change a request makes of the user as the transaction read them (null: nothing to do,
 * harmless to repeat).
 */
export function planUpdate(
  user: StoredUser,
  patch: ResolvedPatch,
  now: Timestamp,
): PlannedChange | null {
  const update: UserUpdate = {};
  let [seats, action, needsOtherOwner]: [PlannedChange["seats"], string, boolean] = [
    0,
    "user.updated",
    false,
  ];
  const seated = isSeated(user.status);
  if (patch.active === false && user.status !== "deactivated") {
    // `active` is only reached by signing in: remember it for a later reactivation. A status
    // outside the contract holds no seat and frees none.
    Object.assign(update, {
      status: "deactivated",
      deactivatedAt: now,
      ...(user.status === "active" ? { signedInBefore: true } : {}),
    });
    [seats, action, needsOtherOwner] = [seated ? -1 : 0, "user.deactivated", isProtected(user)];
  } else if (patch.active === true && !seated) {
    Object.assign(update, {
      status: user.signedInBefore ? "active" : "invited",
      deactivatedAt: null,
    });
    [seats, action] = [1, "user.reactivated"];
  }
  if (patch.displayName !== undefined && patch.displayName !== user.displayName)
    update.displayName = patch.displayName;
  const { department } = patch;
  if (department.id !== undefined && department.id !== user.departmentId)
    update.departmentId = department.id;
  if (department.unmatched !== undefined && department.unmatched !== user.unmatchedDepartment)
    update.unmatchedDepartment = department.unmatched;
  if (patch.email !== undefined && patch.email !== user.email) {
    if (isProtected(user)) throw protectedAddress();
    update.email = patch.email;
    // A user from before `userName` was kept was named by their address: the name stays.
    if (user.userName === null && patch.userName === undefined && user.email)
      Object.assign(update, { userName: user.email, userNameKey: user.email });
  }
  if (patch.userName !== undefined && patch.userName !== (user.userName ?? user.email)) {
    update.userName = patch.userName;
    if (lower(patch.userName) !== user.userNameKey) update.userNameKey = lower(patch.userName);
  }
  // An address set any other way than from the userName no longer follows it.
  const fromUserName =
    patch.addressFromUserName ?? (update.email ? false : user.addressFromUserName);
  if (fromUserName !== user.addressFromUserName) update.addressFromUserName = fromUserName;
  if (patch.externalId !== undefined && patch.externalId !== user.externalId)
    update.externalId = patch.externalId;
  // The role of the owner and of Key Users is the app's alone: a value sent for them is not
  // applied, nor recorded. Else the provider's value is kept beside the role it gave (roleRematch).
  // A role the group map gives wins over the `roles` value (still recorded): the one this change
  // sets, else the stored one as this transaction read it, so a concurrent removal is not undone.
  const groupRole = patch.groupRole !== undefined ? patch.groupRole : user.groupRole;
  if (patch.role && !isProtected(user)) {
    const { idpRole } = patch.role;
    const role = groupRole ?? patch.role.role;
    if (role !== user.role) update.role = role;
    if (idpRole !== user.idpRole) update.idpRole = idpRole;
    if (role !== user.idpRoleMappedTo) update.idpRoleMappedTo = role;
  }
  if (patch.groupRole !== undefined && patch.groupRole !== user.groupRole && !isProtected(user))
    update.groupRole = patch.groupRole;
  // The adapter sends a profile only when it differs from the one it read.
  if (patch.profile !== undefined) update.scimProfile = patch.profile;
  for (const field of NAME_FIELDS)
    if (patch.name?.[field] !== undefined && patch.name[field] !== user[field])
      update[field] = patch.name[field];
  return Object.keys(update).length ? { update, seats, action, needsOtherOwner } : null;
}

/**
 * Removal: deactivated if needed (an owner or Key User only while another active owner stays), then
 * off the roster.
 */
export function planRemoval(user: StoredUser, now: Timestamp): PlannedChange {
  const deactivated = user.status === "deactivated";
  return {
    update: {
      removal: true,
      status: "deactivated",
      ...(deactivated ? {} : { deactivatedAt: now }),
    },
    seats: isSeated(user.status) ? -1 : 0,
    action: "user.removed",
    needsOtherOwner: isProtected(user) && !deactivated,
  };
}

/**
 * What a sign-in finds: `refused` for a deactivated or removed person; an invited person becomes
 * `active` at their first sign-in (they hold their seat already). `touch`: a change a provider
 * sees (`updatedAt` moves).
 */
export function planSignIn(user: StoredUser): {
  outcome: "allowed" | "refused";
  update?: UserUpdate;
  touch?: boolean;
} {
  if (user.removedAt || user.status === "deactivated") return { outcome: "refused" };
  if (user.status === "invited")
    return { outcome: "allowed", update: { status: "active", signedInBefore: true }, touch: true };
  if (!user.signedInBefore)
    return { outcome: "allowed", update: { signedInBefore: true }, touch: false };
  return { outcome: "allowed" };
}
