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

/** A silent invite: an account with no password and no e-mail sent; the person signs in by SSO. */
export async function createAccount(email: string, displayName: string, disabled = false): Promise<string> {
  try {
    return (await auth().createUser({ email, displayName, emailVerified: false, disabled })).uid;
  } catch (err) {
    if (codeOf(err) === "auth/email-already-exists") throw new EmailTakenError();
    throw err;
  }
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

/** Ends every session of the account (refresh tokens revoked); the blocking function does not run on token refresh. */
export async function revokeSessions(uid: string): Promise<void> {
  await auth()
    .revokeRefreshTokens(uid)
    .catch((err: unknown) => {
      if (codeOf(err) !== "auth/user-not-found") throw err;
    });
}

/** The uid of the account with this e-mail address, or null. */
export async function accountWithEmail(email: string): Promise<string | null> {
  try {
    return (await auth().getUserByEmail(email)).uid;
  } catch (err) {
    if (codeOf(err) === "auth/user-not-found") return null;
    throw err;
  }
}
