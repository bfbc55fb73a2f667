import type { Timestamp } from "firebase-admin/firestore";
import type { AuditOrigin } from "../../repos/auditLogs";
import {
  readUserTransaction,
  runUserTransaction,
  type UserTransaction,
  type UserUpdate,
} from "../../repos/userTransaction";
import type { StoredUser } from "../../repos/users";
import {
  assertAddressFree,
  assertOtherActiveOwner,
  assertSeatFree,
  assertUserNameFree,
  planSignIn,
  SEATED,
  seatsFrom,
  type PlannedChange,
} from "./decisions";
import { notFound, type Seats } from "./userRefusals";

/**
 * The lifecycle's transactions: each reads what its decisions need (decisions.ts), then
 * writes the user, the company's seat counter and the audit entry together, or nothing.
 */

/**
 * The company's seats, read in the transaction; a counter that cannot be trusted is recounted from
 * the roster.
 */
export async function seatsIn(tx: UserTransaction, companyId: string, delta = 0): Promise<Seats> {
  const seats = seatsFrom(await tx.seats(companyId), delta);
  return {
    capacity: seats.capacity,
    used: seats.used ?? (await tx.countWithStatus(companyId, SEATED)),
  };
}

/**
 * The uniqueness rules for what a write sets (only the address and userName it sets are checked).
 */
async function assertFreeIn(
  tx: UserTransaction,
  companyId: string,
  uid: string,
  fields: Pick<UserUpdate, "email" | "userNameKey">,
): Promise<void> {
  if (fields.email !== undefined) assertAddressFree(await tx.withEmail(fields.email), uid);
  if (fields.userNameKey !== undefined) {
    const [withKey, withKeyAsAddress] = await Promise.all([
      tx.withUserNameKey(companyId, fields.userNameKey),
      tx.withEmail(fields.userNameKey),
    ]);
    assertUserNameFree(companyId, uid, withKey, withKeyAsAddress);
  }
}

/**
 * Outside a transaction: the seats when none looks free (a cheap early refusal; the transaction
 * decides), else null.
 */
export async function seatsLookFull(companyId: string): Promise<Seats | null> {
  const seats = await readUserTransaction((tx) => seatsIn(tx, companyId));
  return seats.used >= seats.capacity ? seats : null;
}

/**
 * The company's user as read (null: unknown or another company's); `removed`: removed from its
 * roster.
 */
function found(
  user: StoredUser | null,
  companyId: string,
): { user: StoredUser; removed: boolean } | null {
  return user && user.companyId === companyId ? { user, removed: Boolean(user.removedAt) } : null;
}

async function apply(
  tx: UserTransaction,
  companyId: string,
  user: StoredUser,
  change: PlannedChange,
  origin: AuditOrigin,
): Promise<StoredUser> {
  await assertFreeIn(tx, companyId, user.id, change.update);
  if (change.needsOtherOwner)
    assertOtherActiveOwner(await tx.withRoleAndStatus(companyId, "owner", "active"), user.id);
  const seats = change.seats ? await seatsIn(tx, companyId, change.seats) : null;
  if (seats && change.seats > 0) assertSeatFree(seats);
  const updated = tx.update(user.id, change.update);
  if (seats) tx.setSeatsUsed(companyId, seats.used + change.seats);
  tx.audit(companyId, user.id, change.action, origin);
  return updated;
}

/**
 * Applies the change `plan` makes of the user as the transaction reads them (null: nothing to
 * do, harmless to repeat). A change that takes a seat is refused when none is free.
 */
export async function commitChange(
  companyId: string,
  uid: string,
  plan: (user: StoredUser, now: Timestamp) => PlannedChange | null,
  origin: AuditOrigin,
): Promise<{ user: StoredUser; changed: PlannedChange | null }> {
  return runUserTransaction(async (tx) => {
    const at = found(await tx.user(uid), companyId);
    if (!at || at.removed) throw notFound();
    const change = plan(at.user, tx.now);
    if (!change) return { user: at.user, changed: null };
    return { user: await apply(tx, companyId, at.user, change, origin), changed: change };
  });
}

/**
 * Removes the user with the change `plan` makes, or answers `already` for a user removed before
 * (whose `createdAt`, `email`, `userNameKey` and `externalId` are moved aside then if an older
 * version left them: an idempotent repair).
 */
export async function commitRemoval(
  companyId: string,
  uid: string,
  plan: (user: StoredUser, now: Timestamp) => PlannedChange,
  origin: AuditOrigin,
): Promise<"removed" | "already"> {
  return runUserTransaction(async (tx) => {
    const at = found(await tx.user(uid), companyId);
    if (!at) throw notFound();
    if (!at.removed) {
      await apply(tx, companyId, at.user, plan(at.user, tx.now), origin);
      return "removed";
    }
    if (heldAside(at.user)) tx.update(uid, { removal: true }, { touch: false });
    return "already";
  });
}

/**
 * A removed user an older version left holding `createdAt`, `email`, `userNameKey` or `externalId`.
 */
const heldAside = (user: StoredUser) =>
  Boolean(user.createdAt) ||
  [user.email, user.userNameKey, user.externalId].some((v) => v !== null);

/**
 * Moves a removed user's lookup fields aside if an older version left them (idempotent; nothing for
 * a user on a roster).
 */
export async function repairRemoved(uid: string): Promise<void> {
  await runUserTransaction(async (tx) => {
    const user = await tx.user(uid);
    if (user?.removedAt && heldAside(user)) tx.update(uid, { removal: true }, { touch: false });
  });
}

/**
 * Records a sign-in on the roster: `refused` for a deactivated or removed person, and for an
 * invitation's account with no roster entry. Other people with no user document (platform
 * staff) are not the roster's to decide.
 */
export async function recordSignIn(uid: string): Promise<"allowed" | "refused"> {
  return runUserTransaction(async (tx) => {
    const user = await tx.user(uid);
    // An invitation's account before its roster entry commits (or after it failed) is nobody's yet.
    if (!user) return (await tx.intent(uid))?.reason === "invite" ? "refused" : "allowed";
    const { outcome, update, touch } = planSignIn(user);
    if (update) tx.update(uid, update, { touch });
    return outcome;
  });
}
