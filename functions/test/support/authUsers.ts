import { auth } from "../../src/config/firebase";
import { randomId, seedUser } from "./builders";

/**
 * Real Auth-emulator identities for callable tests: the user exists in the Auth emulator with
 * its custom claims, signs in with a custom token through the emulator's REST API, and the
 * resulting ID token is verified by the Admin SDK; the decoded token is what a callable sees.
 */
export async function signedIn(
  claims: Record<string, unknown> = {},
  uid = randomId("u"),
  account: { email?: string; emailVerified?: boolean } = {},
) {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!host)
    throw new Error(
      "FIREBASE_AUTH_EMULATOR_HOST is not set: run the emulator tests with npm run test:emulator.",
    );
  await auth().createUser({ uid, ...account });
  if (Object.keys(claims).length) await auth().setCustomUserClaims(uid, claims);
  const customToken = await auth().createCustomToken(uid);
  const res = await fetch(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: customToken, returnSecureToken: true }),
    },
  );
  if (!res.ok) throw new Error(`Auth emulator sign-in failed: ${res.status} ${await res.text()}`);
  const { idToken } = (await res.json()) as { idToken: string };
  const token = await auth().verifyIdToken(idToken);
  return { uid, token, idToken };
}

export type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/**
 * The console tests' cast: the company's owner with and without the Key User role, a manager
 * with it, a standard user, the other company's owner with it (named `otherName`), and an Admin.
 */
export async function consolePeople(
  companyId: string,
  otherCompanyId: string,
  otherName = "otherOwner",
): Promise<Record<string, SignedIn>> {
  const roles: Array<[string, string, Record<string, unknown>]> = [
    ["ownerKeyUser", companyId, { role: "owner", keyUser: true }],
    ["ownerOnly", companyId, { role: "owner" }],
    ["managerKeyUser", companyId, { role: "manager", keyUser: true }],
    ["standard", companyId, { role: "standard" }],
    [otherName, otherCompanyId, { role: "owner", keyUser: true }],
  ];
  const people: Record<string, SignedIn> = {};
  for (const [name, company, fields] of roles) {
    people[name] = await signedIn();
    await seedUser(people[name].uid, { companyId: company, ...fields, displayName: name });
  }
  people.admin = await signedIn({ admin: true });
  return people;
}
