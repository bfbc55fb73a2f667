import { Timestamp, type DocumentSnapshot, type Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { flag, nullableString, parseSnapshot, timestamp } from "./stored";
import { runContended } from "./transactions";
import { isUserId, usersCollection } from "./users";

/**
 * `accountIntents/{uid}` (docs/firestore-data.md, "Sign-in account intents"): written before
 * provisioning writes the Firebase Auth account `uid`, deleted once Auth follows the roster
 * again. Reads and writes only; what an intent means is the users service's
 * (services/users/accountSync.ts).
 */
export const accountIntentsCollection = () => firestore().collection("accountIntents");

export type IntentReason = "invite" | "address" | "email" | "status" | "removal";

const intentShape = {
  companyId: nullableString,
  reason: nullableString,
  at: timestamp,
  abandoned: flag,
};

export interface AccountIntent {
  uid: string;
  companyId: string | null;
  reason: string | null;
  at: Timestamp | null;
  abandoned: boolean;
  /** The update time read: clearing succeeds only while nobody rewrote the intent. */
  version: Timestamp;
}

const parseIntent = (snap: DocumentSnapshot): AccountIntent | null => {
  if (!snap.exists || !snap.updateTime) return null;
  const { id, companyId, reason, at, abandoned } = parseSnapshot(intentShape, snap);
  return { uid: id, companyId, reason, at, abandoned, version: snap.updateTime };
};

/**
 * A fresh uid for a new account (Firestore's auto-id form, valid for Auth and as a document id).
 */
export const newAccountUid = () => accountIntentsCollection().doc().id;

/** Records (or renews) the intent; returns its version. */
export async function recordIntent(
  uid: string,
  companyId: string,
  reason: IntentReason,
): Promise<Timestamp> {
  return (await accountIntentsCollection().doc(uid).set({ companyId, reason, at: Timestamp.now() }))
    .writeTime;
}

export async function readIntent(uid: string): Promise<AccountIntent | null> {
  return isUserId(uid) ? parseIntent(await accountIntentsCollection().doc(uid).get()) : null;
}

/** In a transaction of the users repo: the intent of `uid`, as read there. */
export async function intentIn(tx: Transaction, uid: string): Promise<AccountIntent | null> {
  return parseIntent(await tx.get(accountIntentsCollection().doc(uid)));
}

const FAILED_PRECONDITION = 9;
const NOT_FOUND = 5;

/** Deletes the intent unless it was rewritten since it was read; false when it was (or is gone). */
export async function clearIntent(intent: AccountIntent): Promise<boolean> {
  try {
    await accountIntentsCollection().doc(intent.uid).delete({ lastUpdateTime: intent.version });
    return true;
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === FAILED_PRECONDITION || code === NOT_FOUND) return false;
    throw err;
  }
}

export async function deleteIntent(uid: string): Promise<void> {
  await accountIntentsCollection().doc(uid).delete();
}

/**
 * Marks an invitation's intent abandoned unless its user committed: `committed` (a user document
 * exists), `gone` (no intent: nothing of ours to undo) or `abandoned`. One transaction with the
 * invitation's commit (which refuses an abandoned intent), so the two never both succeed.
 */
export async function abandonIntent(uid: string): Promise<"committed" | "gone" | "abandoned"> {
  return runContended(async (tx) => {
    const ref = accountIntentsCollection().doc(uid);
    const [intent, user] = await Promise.all([tx.get(ref), tx.get(usersCollection().doc(uid))]);
    if (user.exists) return "committed";
    if (!intent.exists) return "gone";
    tx.update(ref, { abandoned: true });
    return "abandoned";
  });
}

/**
 * Takes over an invitation's unfinished intent (no user, not abandoned) of `companyId`; false if
 * it is not one. Only the company whose invitation made the account may adopt it: two companies
 * may list the same domain, and the other one's invitation must meet a taken address.
 */
export async function claimIntent(uid: string, companyId: string): Promise<boolean> {
  if (!isUserId(uid)) return false;
  return runContended(async (tx) => {
    const ref = accountIntentsCollection().doc(uid);
    const [snap, user] = await Promise.all([tx.get(ref), tx.get(usersCollection().doc(uid))]);
    const intent = parseIntent(snap);
    if (user.exists || !intent || intent.abandoned || intent.reason !== "invite") return false;
    if (intent.companyId !== companyId) return false;
    tx.update(ref, { at: Timestamp.now() });
    return true;
  });
}

/** The uids of the oldest intents written before `before` (at most `limit`). */
export async function staleIntents(before: Timestamp, limit: number): Promise<string[]> {
  return (
    await accountIntentsCollection().where("at", "<", before).orderBy("at").limit(limit).get()
  ).docs.map((d) => d.id);
}
