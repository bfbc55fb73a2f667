import { auth, firestore } from "../config/firebase";

/**
 * Demo console users in the Auth emulator (FIREBASE_AUTH_EMULATOR_HOST): the demo company's
 * owner with the Key User role (uid u-owner, as in the demo data), a plain user of it (u-std1,
 * Jonas Berg, role standard) and a platform Admin.
 * Passwords are demo-only and exist nowhere but the local emulator. The two people's user
 * documents get their account's address, as provisioning keeps it (the demo data gives everyone
 * a canary address), since the console names people by it.
 */
export const DEMO_CONSOLE_USERS = [
  { uid: "u-owner", email: "owner@demo.example", password: "demo-password", claims: {} },
  { uid: "u-std1", email: "user@demo.example", password: "demo-password", claims: {} },
  {
    uid: "platform-admin",
    email: "admin@demo.example",
    password: "demo-password",
    claims: { admin: true },
  },
];

async function main(): Promise<void> {
  if (!process.env.FIREBASE_AUTH_EMULATOR_HOST)
    throw new Error(
      "FIREBASE_AUTH_EMULATOR_HOST is not set: demo users go to the Auth emulator only.",
    );
  for (const user of DEMO_CONSOLE_USERS) {
    // Verified, as the platform's own accounts are: the console names an Admin by that address.
    const account = { email: user.email, password: user.password, emailVerified: true };
    await auth()
      .createUser({ uid: user.uid, ...account })
      .catch(() => auth().updateUser(user.uid, account));
    await auth().setCustomUserClaims(user.uid, user.claims);
    if (!("admin" in user.claims))
      await firestore().doc(`users/${user.uid}`).update({ email: user.email });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
