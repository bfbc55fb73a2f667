import { accountSyncFailed } from "../../logs";
import {
  accountWithEmail,
  createAccount,
  deleteAccount,
  EmailTakenError,
  readAccount,
  revokeSessions,
  setAccountEmail,
  setSignInAllowed,
} from "../../repos/authAccounts";
import { findUser, usersWithEmail, type StoredUser } from "../../repos/users";
import { repairRemoved } from "./commit";
import { isSeated } from "./decisions";

// The users service's handling of Firebase Auth accounts: releasing a removed user's address,
// and making an account follow the roster as committed.

/**
 * Frees an address still held by the account of a removed user (removed before removal deleted
 * accounts, or whose deletion failed), repairing that user's stored form on the way (createdAt
 * moved aside, as removal does today). False when `holder` is not such an account.
 */
export async function releaseRemovedAddress(holder: string, email: string): Promise<boolean> {
  const stale =
    Boolean((await findUser(holder))?.removedAt) &&
    !(await usersWithEmail(email)).some((u) => !u.removedAt);
  if (!stale) return false;
  await repairRemoved(holder);
  await deleteAccount(holder);
  return true;
}

/**
 * An Auth write that gives `uid` the address `email`; an address still held by a removed user's
 * account is freed first, as an invitation frees it (`EmailTakenError` when someone else holds it).
 */
async function giveAddress(uid: string, email: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!(err instanceof EmailTakenError)) throw err;
    const holder = await accountWithEmail(email);
    if (holder !== null && (holder === uid || !(await releaseRemovedAddress(holder, email))))
      throw err;
    await write();
  }
}

/** Moves the account of `uid` to `email`. */
export const moveAccountEmail = (uid: string, email: string) =>
  giveAddress(uid, email, () => setAccountEmail(uid, email));

/**
 * The first account of a user who had no address: created disabled (settling enables it once the
 * roster seats the person).
 */
export const createFirstAccount = (uid: string, email: string, displayName: string) =>
  giveAddress(uid, email, () => createAccount(uid, email, displayName, true));

/**
 * Makes the account follow the roster: deleted for a removed user; otherwise it exists, holds the
 * roster's address and is enabled exactly when the roster seats the person. Disabling ends every
 * session, and so does a moved address (`revoke`: the address moved, whatever Auth holds now).
 * A failure is logged and thrown: the intent stays, and a retry or the sweep repeats this.
 */
export async function matchAccount(user: StoredUser, revoke: boolean): Promise<void> {
  const step = async (name: string, work: () => Promise<void>) =>
    work().catch((err: unknown) => {
      accountSyncFailed({ uid: user.id, step: name }, err);
      throw err;
    });
  if (user.removedAt) return step("delete_removed", () => deleteAccount(user.id));
  const allowed = isSeated(user.status);
  const account = await readAccount(user.id);
  if (!account) {
    if (user.email)
      await step("recreate", () =>
        createAccount(user.id, user.email ?? "", user.displayName ?? "", !allowed),
      );
    return;
  }
  const moved = user.email !== null && account.email !== user.email;
  if (moved) await step("sync_email", () => setAccountEmail(user.id, user.email ?? ""));
  if (account.disabled === allowed)
    await step(allowed ? "enable" : "disable", () => setSignInAllowed(user.id, allowed));
  if ((moved || revoke) && allowed) await step("revoke", () => revokeSessions(user.id));
}
