import { accountSyncFailed } from "../logs";
import { accountWithEmail, createAccount, deleteAccount, EmailTakenError, setAccountEmail, setSignInAllowed } from "../repos/authAccounts";
import { findOnRoster, findUser, usersWithEmail, type StoredUser } from "../repos/users";
import { repairRemoved } from "./userCommit";
import { isSeated } from "./userDecisions";

// The users service's handling of Firebase Auth accounts: creation (releasing a removed user's
// address) and keeping them in step with the roster.

/**
 * The account for a new user. An address still held by the account of a removed user (removed
 * before removal deleted accounts, or whose deletion failed) is released first, and that user's
 * stored form repaired on the way (createdAt moved aside, as removal does today).
 */
export async function createAccountFor(email: string, displayName: string, disabled: boolean): Promise<string> {
  try {
    return await createAccount(email, displayName, disabled);
  } catch (err) {
    if (!(err instanceof EmailTakenError)) throw err;
    const holder = await accountWithEmail(email);
    const stale = holder !== null && Boolean((await findUser(holder))?.removedAt) && !(await usersWithEmail(email)).some((u) => !u.removedAt);
    if (!stale) throw err;
    await repairRemoved(holder);
    await deleteAccount(holder);
    return createAccount(email, displayName, disabled);
  }
}

/**
 * Keeps Firebase Auth in step with the roster as committed. A failure fails the request (logged):
 * repeating it is harmless and repairs Auth, and until then the blocking function refuses the
 * sign-in of anyone the roster does not seat.
 */
export async function syncSignIn(user: StoredUser): Promise<void> {
  const allowed = isSeated(user.status) && !user.removedAt;
  await setSignInAllowed(user.id, allowed).catch((err: unknown) => {
    accountSyncFailed({ uid: user.id, step: allowed ? "enable" : "disable" }, err);
    throw err;
  });
}

/**
 * A new sign-in address goes to the account first (Auth keeps addresses unique), then to the
 * roster. The roster is the truth: afterwards, whether the transaction committed or failed, the
 * account gets the address the roster holds, and its sessions end if the address moved.
 */
export async function syncSignInEmail(companyId: string, uid: string, committed?: StoredUser): Promise<void> {
  const user = committed ?? (await findOnRoster(companyId, uid).catch(() => null));
  if (user?.email) await setAccountEmail(uid, user.email).catch((err: unknown) => accountSyncFailed({ uid, step: "sync_email" }, err));
}
