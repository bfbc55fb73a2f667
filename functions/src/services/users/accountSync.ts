import { Timestamp } from "firebase-admin/firestore";
import { accountSyncFailed } from "../../logs";
import {
  abandonIntent,
  claimIntent,
  clearIntent,
  deleteIntent,
  newAccountUid,
  readIntent,
  recordIntent,
  staleIntents,
  type IntentReason,
} from "../../repos/accountIntents";
import {
  accountWithEmail,
  createAccount,
  deleteAccount,
  EmailTakenError,
  setAccountProfile,
} from "../../repos/authAccounts";
import { findUser } from "../../repos/users";
import { matchAccount, releaseRemovedAddress } from "./signInAccounts";
import { addressTaken } from "./userRefusals";

/**
 * Crash safety of the sign-in accounts (docs/provisioning-crash-safety.md): an intent is recorded
 * before every Auth write, and settled (Auth made to follow the roster, the intent deleted) by
 * the request that wrote it, by the next touch of the user, or by the sweep once it is older than
 * any request can run. An account with an `invite` intent and no user is the API's own
 * unfinished invitation; nothing else is ever adopted or deleted.
 */

/** Longer than any request runs (60 s): an intent this old belongs to no running request. */
export const STALE_AFTER_MS = 10 * 60_000;

export type { IntentReason };

/** Records the intent to write the account of `uid`; returns its version, for `settleOwn`. */
export const intendAccountChange = (
  uid: string,
  companyId: string,
  reason: IntentReason,
): Promise<Timestamp> => recordIntent(uid, companyId, reason);

/**
 * The uid of a new account for an invitation: a fresh uid, its intent recorded before the account
 * is created. If the address has an account already, it is adopted when it is our own orphan (an
 * earlier try that stopped before its roster commit: claimed, and given this request's name and
 * state), released when a removed user's, and refused otherwise.
 */
export async function accountForInvite(
  companyId: string,
  email: string,
  displayName: string,
  disabled: boolean,
): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const uid = newAccountUid();
    await recordIntent(uid, companyId, "invite");
    try {
      await createAccount(uid, email, displayName, disabled);
      return uid;
    } catch (err) {
      await abandonInvite(uid);
      if (!(err instanceof EmailTakenError)) throw err;
    }
    const holder = await accountWithEmail(email);
    // Deleted between the two calls: try again.
    if (holder === null) continue;
    if (await claimIntent(holder, companyId)) {
      await setAccountProfile(holder, displayName, disabled);
      return holder;
    }
    if (!(await releaseRemovedAddress(holder, email))) throw addressTaken();
  }
  throw addressTaken();
}

/**
 * The uid of an invitation without an address: its intent recorded, and no account (until an
 * address comes).
 */
export async function uidWithoutAccount(companyId: string): Promise<string> {
  const uid = newAccountUid();
  await recordIntent(uid, companyId, "invite");
  return uid;
}

/**
 * Gives up an invitation that did not commit: the intent marked abandoned (so nobody adopts the
 * account), the account deleted, the intent deleted. If the user did commit (another request
 * adopted the account), the account is settled instead.
 */
export async function abandonInvite(uid: string): Promise<void> {
  const state = await abandonIntent(uid);
  // Committed by a request that adopted the account: it now follows that user (nothing runs on it).
  if (state === "committed") return settleAccount(uid, { writtenBefore: Number.POSITIVE_INFINITY });
  if (state === "gone") return;
  await deleteAccount(uid);
  await deleteIntent(uid);
}

/**
 * Settles the intent of `uid`: Auth made to follow the roster, then the intent deleted unless it
 * was rewritten meanwhile. `own`: the version this request wrote (settled only if unchanged, so a
 * concurrent request's work in progress is left to it); `writtenBefore`: settled whatever its
 * version if written before that time (ms) or abandoned; the stale cut-off (STALE_AFTER_MS ago)
 * guarantees no running request is overtaken.
 */
export async function settleAccount(
  uid: string,
  which: { own: Timestamp } | { writtenBefore: number },
): Promise<void> {
  const intent = await readIntent(uid);
  if (!intent) return;
  const settles =
    "own" in which
      ? intent.version.isEqual(which.own)
      : intent.abandoned || !intent.at || intent.at.toMillis() < which.writtenBefore;
  if (!settles) return;
  const user = await findUser(uid);
  if (!user) {
    // No roster entry: an invitation that never committed is ours to undo; anything else was never
    // ours.
    if (intent.reason === "invite") await abandonInvite(uid);
    else await clearIntent(intent);
    return;
  }
  // A first address that never committed: the account made for it goes (the user still has no
  // address).
  if (intent.reason === "address" && user.email === null) await deleteAccount(uid);
  else await matchAccount(user, intent.reason === "email");
  await clearIntent(intent);
}

const staleCutoff = (now = Date.now()) => now - STALE_AFTER_MS;

/**
 * Settles whatever a stopped request left for this user (the next touch); never fails the caller.
 */
export async function settleLeftover(uid: string): Promise<void> {
  await settleAccount(uid, { writtenBefore: staleCutoff() }).catch((err: unknown) =>
    accountSyncFailed({ uid, step: "settle_leftover" }, err),
  );
}

/** The scheduled sweep: settles the oldest stale intents (at most `limit`). */
export async function sweepAccountIntents(
  limit = 200,
  now = Date.now(),
): Promise<{ settled: number; failed: number; full: boolean }> {
  const uids = await staleIntents(Timestamp.fromMillis(staleCutoff(now)), limit);
  let failed = 0;
  for (const uid of uids) {
    await settleAccount(uid, { writtenBefore: staleCutoff(now) }).catch((err: unknown) => {
      failed++;
      accountSyncFailed({ uid, step: "sweep" }, err);
    });
  }
  return { settled: uids.length - failed, failed, full: uids.length === limit };
}
