import { Timestamp } from "firebase-admin/firestore";
import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seedUser } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 26 (removed users crowd the lookups, reused addresses) and issue 24 (lookups across
 * companies), replayed through HTTP.
 */
const address = () => `${randomId("r")}@tenant.example`;
const filter = (f: string) => `/Users?filter=${encodeURIComponent(f)}`;
const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data();

/**
 * `count` users of `companyId` removed by an older version: address, userName key and createdAt
 * still in place. Their ids sort first, so a lookup that reads a few documents and drops removed
 * ones afterwards reads only them.
 */
async function seedRemovedLegacy(companyId: string, email: string, count: number) {
  const batch = firestore().batch();
  const at = Timestamp.fromMillis(Date.now() - 86_400_000);
  for (let i = 0; i < count; i++)
    batch.set(
      firestore()
        .collection("users")
        .doc(`0${randomId("gone")}`),
      {
        companyId,
        email,
        userName: email,
        userNameKey: email,
        displayName: "Gone",
        role: "standard",
        status: "deactivated",
        departmentId: null,
        createdAt: at,
        updatedAt: at,
        removedAt: at,
      },
    );
  await batch.commit();
}

describe("lookups are scoped to the company (issue 24)", () => {
  it("Entra ID: another company's 200 removed users of an address do not hide company B's app user from its filters", async () => {
    const a = await scimCompany();
    const b = await scimCompany();
    const email = address();
    await seedRemovedLegacy(a.companyId, email, 200);
    // An app-created user of company B: no userName, no userNameKey (named by its address).
    const appUser = `z${randomId("app")}`;
    await seedUser(appUser, { companyId: b.companyId, email, status: "active" });
    for (const f of [`userName eq "${email}"`, `emails[type eq "work"].value eq "${email}"`]) {
      const res = await scim("get", filter(f), b.key);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ totalResults: 1, Resources: [{ id: appUser }] });
    }
    // Company A finds nothing: its users with the address are all removed.
    expect((await scim("get", filter(`userName eq "${email}"`), a.key)).body.totalResults).toBe(0);
  });
});

describe("removal moves the address and userName key aside (issue 26)", () => {
  it("Entra ID: after 25 remove/re-invite cycles the filter finds the live user, and a concurrent double POST makes one user", async () => {
    const { key } = await scimCompany({ seatCapacity: 5, seatsUsed: 0 });
    const email = address();
    const body = {
      schemas: [URN.user],
      userName: email,
      externalId: randomId("aad"),
      active: true,
    };
    let first: string | undefined;
    for (let i = 0; i < 25; i++) {
      const created = await scim("post", "/Users", key, body);
      expect(created.status).toBe(201);
      first ??= created.body.id;
      expect((await scim("delete", `/Users/${created.body.id}`, key)).status).toBe(204);
    }
    const [one, two] = await Promise.all([
      scim("post", "/Users", key, body),
      scim("post", "/Users", key, body),
    ]);
    expect([one.status, two.status].sort()).toEqual([201, 409]);
    const live = one.status === 201 ? one.body.id : two.body.id;
    for (const f of [
      `userName eq "${email}"`,
      `emails.value eq "${email}"`,
      `externalId eq "${body.externalId}"`,
    ])
      expect((await scim("get", filter(f), key)).body).toMatchObject({
        totalResults: 1,
        Resources: [{ id: live }],
      });
    const holders = await firestore().collection("users").where("email", "==", email).get();
    expect(holders.docs.map((d) => d.id)).toEqual([live]);
    const removed = await stored(first ?? "");
    expect(removed).toMatchObject({
      removedEmail: email,
      removedUserNameKey: email,
      removedExternalId: body.externalId,
    });
    expect(removed).not.toHaveProperty("externalId");
    expect(removed).not.toHaveProperty("email");
    expect(removed).not.toHaveProperty("userNameKey");
  });

  it("users removed by an older version are moved aside when the address is invited again", async () => {
    const { companyId, key } = await scimCompany();
    const email = address();
    await seedRemovedLegacy(companyId, email, 25);
    const res = await scim("post", "/Users", key, { schemas: [URN.user], userName: email });
    expect(res.status).toBe(201);
    expect((await scim("get", filter(`userName eq "${email}"`), key)).body).toMatchObject({
      totalResults: 1,
      Resources: [{ id: res.body.id }],
    });
  });
});

describe("reused addresses on PATCH (issue 26)", () => {
  it("Okta: an e-mail change to an address held by a removed user's leftover sign-in account frees it, as POST does", async () => {
    const { companyId, key } = await scimCompany();
    const [email, next] = [address(), address()];
    const old = await auth().createUser({ email: next, disabled: true });
    await seedUser(old.uid, {
      companyId,
      email: next,
      status: "deactivated",
      removedAt: new Date(),
      createdAt: new Date(Date.now() - 86_400_000),
    });
    const created = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName: email,
      emails: [{ value: email, primary: true, type: "work" }],
    });
    expect(created.status).toBe(201);
    const res = await scim(
      "patch",
      `/Users/${created.body.id}`,
      key,
      patchOp({ op: "replace", path: 'emails[type eq "work"].value', value: next }),
    );
    expect(res.status).toBe(200);
    expect(res.body.emails).toEqual([expect.objectContaining({ value: next })]);
    expect((await auth().getUserByEmail(next)).uid).toBe(created.body.id);
    await expect(auth().getUser(old.uid)).rejects.toMatchObject({ code: "auth/user-not-found" });
    expect(await stored(old.uid)).toMatchObject({ removedEmail: next });
  });
});

describe("existing app users are found case-insensitively (issue 26)", () => {
  it("Entra ID: an app user stored as typed (Kari.N@…) is found by userName eq in lower case; its POST answers 409 once, then PATCH applies", async () => {
    const { companyId, key } = await scimCompany();
    const typed = `Kari.N.${randomId("k")}@Contoso.no`;
    const lowered = typed.toLowerCase();
    const account = await auth().createUser({ email: typed });
    await seedUser(account.uid, { companyId, email: typed, status: "active" });
    for (const f of [`userName eq "${lowered}"`, `emails[type eq "work"].value eq "${lowered}"`])
      expect((await scim("get", filter(f), key)).body).toMatchObject({
        totalResults: 1,
        Resources: [{ id: account.uid }],
      });
    // Another company does not see it.
    const other = await scimCompany();
    expect(
      (await scim("get", filter(`userName eq "${lowered}"`), other.key)).body.totalResults,
    ).toBe(0);
    // A POST anyway (a provider that skipped the lookup) is 409 uniqueness; the filter finds the
    // user to PATCH.
    const post = await scim("post", "/Users", key, { schemas: [URN.user], userName: lowered });
    expect(post.status).toBe(409);
    expect(post.body.scimType).toBe("uniqueness");
    const patched = await scim(
      "patch",
      `/Users/${account.uid}`,
      key,
      patchOp({ op: "replace", path: "displayName", value: "Kari Nordmann" }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.displayName).toBe("Kari Nordmann");
  });
});
