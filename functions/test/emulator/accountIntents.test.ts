import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { auth, firestore } from "../../src/config/firebase";
import { sweepAccountIntents } from "../../src/services/users/accountSync";
import { recordSignIn } from "../../src/services/users/commit";
import {
  randomId,
  seatsUsed,
  seedCompany,
  seedProvisioningKey,
  seedUser,
} from "../support/builders";
import { client } from "../support/http";

/**
 * The sign-in account intents (docs/provisioning-crash-safety.md): what the sweep repairs, what
 * it leaves alone, and that nobody else's account is ever taken over. The crashes themselves:
 * provisioningCrash.test.ts.
 */
const company = client(createCompanyApp());
const address = () => `${randomId("p")}@intents.example`;
const intent = (uid: string, companyId: string, reason: string, minutesAgo: number) =>
  firestore()
    .doc(`accountIntents/${uid}`)
    .set({ companyId, reason, at: Timestamp.fromMillis(Date.now() - minutesAgo * 60_000) });
const exists = async (uid: string) => (await firestore().doc(`accountIntents/${uid}`).get()).exists;
const account = (uid: string) =>
  auth()
    .getUser(uid)
    .then(
      (u) => u,
      () => null,
    );

async function provisioning() {
  const companyId = await seedCompany({ seatCapacity: 5, seatsUsed: 1 });
  const key = await seedProvisioningKey(companyId);
  return { companyId, key };
}

describe("the intent sweep (accountIntentSweep)", () => {
  it("deletes an invitation's account left without a roster entry, once older than 10 minutes; a younger one is left to its request", async () => {
    const { companyId } = await provisioning();
    const [old, young] = [randomId("u"), randomId("u")];
    await Promise.all([
      auth().createUser({ uid: old, email: address() }),
      auth().createUser({ uid: young, email: address() }),
    ]);
    await Promise.all([
      intent(old, companyId, "invite", 11),
      intent(young, companyId, "invite", 1),
    ]);
    expect(await recordSignIn(old)).toBe("refused");
    await sweepAccountIntents();
    expect([await account(old), await exists(old)]).toEqual([null, false]);
    expect((await account(young))?.uid).toBe(young);
    expect(await exists(young)).toBe(true);
  });

  it("disables the account of a user whose deactivation committed without reaching Auth, and puts the roster's address back", async () => {
    const { companyId } = await provisioning();
    const uid = randomId("u");
    const [kept, moved] = [address(), address()];
    await auth().createUser({ uid, email: moved, disabled: false });
    await seedUser(uid, { companyId, email: kept, status: "deactivated" });
    await intent(uid, companyId, "email", 30);
    await sweepAccountIntents();
    expect(await account(uid)).toMatchObject({ email: kept, disabled: true });
    expect(await exists(uid)).toBe(false);
  });

  it("never touches an account with no intent (someone else's sign-up in progress): its address is refused, not taken over", async () => {
    const { key } = await provisioning();
    const theirs = address();
    const uid = randomId("u");
    await auth().createUser({ uid, email: theirs });
    await sweepAccountIntents();
    const res = await company
      .raw()
      .post("/v1/users")
      .set("Authorization", `Bearer ${key}`)
      .send({ email: theirs, display_name: "Taken" });
    expect(res.status).toBe(409);
    expect((await account(uid))?.email).toBe(theirs);
    expect(await recordSignIn(uid)).toBe("allowed");
  });

  it("a retried invitation adopts its own orphan account: 201, one user on that account, one seat", async () => {
    const { companyId, key } = await provisioning();
    const mine = address();
    const uid = randomId("u");
    await auth().createUser({ uid, email: mine, displayName: "Before" });
    await intent(uid, companyId, "invite", 0);
    const res = await company
      .raw()
      .post("/v1/users")
      .set("Authorization", `Bearer ${key}`)
      .send({ email: mine, display_name: "Adopted" });
    expect(res.status).toBe(201);
    expect(res.body.data.id).toBe(uid);
    expect(await account(uid)).toMatchObject({
      email: mine,
      displayName: "Adopted",
      disabled: false,
    });
    expect((await firestore().doc(`companies/${companyId}`).get()).get("seatsUsed")).toBe(2);
    expect(await exists(uid)).toBe(false);
  });

  it("another company listing the same domain cannot adopt the orphan: 409; its own company's retry still adopts it", async () => {
    const domain = `${randomId("d")}.example`;
    const domains = { provisioningDomains: [domain] };
    const [mine, theirs] = await Promise.all([seedCompany(domains), seedCompany(domains)]);
    const [myKey, theirKey] = await Promise.all([mine, theirs].map(seedProvisioningKey));
    const email = `${randomId("p")}@${domain}`;
    const uid = randomId("u");
    await auth().createUser({ uid, email, displayName: "Half-made" });
    await intent(uid, mine, "invite", 0);
    const invite = (key: string, name: string) =>
      company
        .raw()
        .post("/v1/users")
        .set("Authorization", `Bearer ${key}`)
        .send({ email, display_name: name });
    const attack = await invite(theirKey, "Taken over");
    expect([attack.status, attack.body.error.code]).toEqual([409, "conflict"]);
    expect(await account(uid)).toMatchObject({ email, displayName: "Half-made" });
    expect((await firestore().doc(`accountIntents/${uid}`).get()).get("companyId")).toBe(mine);
    const retry = await invite(myKey, "Adopted");
    expect([retry.status, retry.body.data.id]).toEqual([201, uid]);
    expect(await seatsUsed(theirs)).toBe(0);
  });
});
