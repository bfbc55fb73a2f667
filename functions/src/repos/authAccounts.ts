import { auth } from "../config/firebase";

/**
 * Firebase Auth accounts of provisioned people: the only code that calls Firebase Auth.
 * E-mail addresses are unique across the whole project, so Auth, not Firestore, is what makes
 * two concurrent invitations of one address fail for all but one.
 */
export class EmailTakenError extends Error {
  constructor() {
    super("the e-mail address is already used by an account");
    this.name = "EmailTakenError";
  }
}

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

/**
 * A silent invite: the account `uid` with no password and no e-mail sent; the person signs in by
 * SSO. An account that already has this uid is the caller's own (the uid was generated for it).
 */
export async function createAccount(
  uid: string,
  email: string,
  displayName: string,
  disabled = false,
): Promise<void> {
  try {
    await auth().createUser({ uid, email, displayName, emailVerified: false, disabled });
  } catch (err) {
    if (codeOf(err) === "auth/email-already-exists") throw new EmailTakenError();
    if (codeOf(err) !== "auth/uid-already-exists") throw err;
  }
}

/** The account's address and whether it is disabled, or null when there is no account. */
export async function readAccount(
  uid: string,
): Promise<{ email: string | null; disabled: boolean } | null> {
  try {
    const account = await auth().getUser(uid);
    return { email: account.email ?? null, disabled: account.disabled };
  } catch (err) {
    if (codeOf(err) === "auth/user-not-found") return null;
    throw err;
  }
}

/** The addresses Auth has verified of these accounts (at most 100), by uid, in one call. */
export async function verifiedEmails(uids: readonly string[]): Promise<Map<string, string>> {
  if (!uids.length) return new Map();
  const { users } = await auth().getUsers(uids.slice(0, 100).map((uid) => ({ uid })));
  return new Map(users.flatMap((u) => (u.email && u.emailVerified ? [[u.uid, u.email]] : [])));
}

/** Sets an existing account's display name and whether it is disabled. */
export async function setAccountProfile(
  uid: string,
  displayName: string,
  disabled: boolean,
): Promise<void> {
  await auth().updateUser(uid, { displayName, disabled });
}

/** Changes the account's sign-in e-mail address (unverified again). */
export async function setAccountEmail(uid: string, email: string): Promise<void> {
  try {
    await auth().updateUser(uid, { email, emailVerified: false });
  } catch (err) {
    if (codeOf(err) === "auth/email-already-exists") throw new EmailTakenError();
    if (codeOf(err) !== "auth/user-not-found") throw err;
  }
}

export async function deleteAccount(uid: string): Promise<void> {
  await auth()
    .deleteUser(uid)
    .catch((err: unknown) => {
      if (codeOf(err) !== "auth/user-not-found") throw err;
    });
}

/** Disables sign-in and ends every session (refresh tokens revoked), or enables sign-in again. */
export async function setSignInAllowed(uid: string, allowed: boolean): Promise<void> {
  try {
    await auth().updateUser(uid, { disabled: !allowed });
    if (!allowed) await auth().revokeRefreshTokens(uid);
  } catch (err) {
    if (codeOf(err) !== "auth/user-not-found") throw err;
  }
}

/**
 * Ends every session of the account (refresh tokens revoked); the blocking function does not run on
 * token refresh.
 */
export async function revokeSessions(uid: string): Promise<void> {
  await auth()
    .revokeRefreshTokens(uid)
    .catch((err: unknown) => {
      if (codeOf(err) !== "auth/user-not-found") throw err;
    });
}

/**
 * The uid of the account with this e-mail address, or null (also for a value Auth refuses as no
 * address: a lookup by `jdoe`).
 */
export async function accountWithEmail(email: string): Promise<string | null> {
  try {
    return (await auth().getUserByEmail(email)).uid;
  } catch (err) {
    if (codeOf(err) === "auth/user-not-found" || codeOf(err) === "auth/invalid-email") return null;
    throw err;
  }
}
