import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seatsUsed, seedUser } from "../support/builders";
import { scimApi as company, patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 15, life-cycle breaks 1–4, replayed in Entra ID's and Okta's forms through HTTP on the
 * emulators.
 */
const ENTERPRISE = URN.enterprise;
const address = () => `${randomId("l")}@tenant.example`;
const filter = (f: string) => `/Users?filter=${encodeURIComponent(f)}`;
const user = async (_companyId: string, id: string) =>
  (await firestore().doc(`users/${id}`).get()).data();

describe("1. rehire after DELETE", () => {
  it.each(["Entra ID", "Okta"])(
    "%s: DELETE releases the address; the filter and a new POST agree, and the old records stay",
    async (client) => {
      const { companyId, key } = await scimCompany({ seatCapacity: 2, seatsUsed: 0 });
      const email = address();
      const body =
        client === "Okta"
          ? {
              schemas: [URN.user],
              userName: email,
              emails: [{ value: email, primary: true, type: "work" }],
              active: true,
            }
          : { schemas: [URN.user], userName: email, externalId: randomId("aad"), active: true };
      const first = await scim("post", "/Users", key, body);
      expect(first.status).toBe(201);
      if (client === "Okta")
        await scim(
          "patch",
          `/Users/${first.body.id}`,
          key,
          patchOp({ op: "replace", value: { active: false } }),
        );
      expect((await scim("delete", `/Users/${first.body.id}`, key)).status).toBe(204);
      expect((await scim("get", filter(`userName eq "${email}"`), key)).body.totalResults).toBe(0);
      const again = await scim("post", "/Users", key, body);
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(first.body.id);
      expect((await scim("get", filter(`userName eq "${email}"`), key)).body).toMatchObject({
        totalResults: 1,
        Resources: [{ id: again.body.id }],
      });
      expect((await auth().getUserByEmail(email)).uid).toBe(again.body.id);
      expect(await user(companyId, first.body.id)).toMatchObject({
        removedAt: expect.anything(),
        status: "deactivated",
        removedEmail: email,
      });
      // The address moved aside with the removal: no lookup of it reads the removed user again.
      expect(await user(companyId, first.body.id)).not.toHaveProperty("email");
      expect(await seatsUsed(companyId)).toBe(1);
      // A removed user answers 404 to everything, a repeated DELETE included (RFC 7644 §3.6), as
      // does an unknown id.
      expect((await scim("delete", `/Users/${first.body.id}`, key)).status).toBe(404);
      expect((await scim("delete", "/Users/no-such-user", key)).body).toMatchObject({
        schemas: [URN.error],
        status: "404",
      });
    },
  );

  it("/v1/users: invite, remove, invite the same address again", async () => {
    const { companyId, key } = await scimCompany();
    const email = address();
    const first = await company.send("post", "/v1/users", key, { email, display_name: "Rehire" });
    expect((await company.send("delete", `/v1/users/${first.body.data.id}`, key)).status).toBe(204);
    const again = await company.send("post", "/v1/users", key, { email, display_name: "Rehire" });
    expect(again.status).toBe(201);
    expect(
      (await company.get(`/v1/users?email=${encodeURIComponent(email)}`, key)).body.data.map(
        (u: { id: string }) => u.id,
      ),
    ).toEqual([again.body.data.id]);
    expect(await seatsUsed(companyId)).toBe(1);
  });

  it("an address still held by the sign-in account of a user removed before accounts were deleted is released on the next POST", async () => {
    const { companyId, key } = await scimCompany();
    const email = address();
    const old = await auth().createUser({ email, disabled: true });
    await seedUser(old.uid, {
      companyId,
      email,
      status: "deactivated",
      removedAt: new Date(),
      createdAt: new Date(Date.now() - 86_400_000),
    });
    const res = await scim("post", "/Users", key, { userName: email });
    expect(res.status).toBe(201);
    expect((await auth().getUserByEmail(email)).uid).toBe(res.body.id);
    // The POST that released the address moved the old removed user out of the ordered roster
    // (listings only read).
    expect((await scim("get", "/Users", key)).body).toMatchObject({
      totalResults: 1,
      Resources: [{ id: res.body.id }],
    });
    expect(await user(companyId, old.uid)).toMatchObject({ removedCreatedAt: expect.anything() });
  });
});

describe("2. an enterprise department the company does not have", () => {
  it("Entra ID: POST creates the user without it and records the name; a PATCH with it beside active=false still deactivates", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 3, seatsUsed: 0 });
    const created = await scim("post", "/Users", key, {
      userName: address(),
      [ENTERPRISE]: { department: "Galley" },
    });
    expect(created.status).toBe(201);
    // Read back as sent (Entra compares it at every cycle), while the user has no department in the
    // app.
    expect(created.body[ENTERPRISE]).toEqual({ department: "Galley" });
    expect(await user(companyId, created.body.id)).toMatchObject({
      departmentId: null,
      unmatchedDepartment: "Galley",
    });
    await scim(
      "patch",
      `/Users/${created.body.id}`,
      key,
      patchOp({ op: "Add", path: `${ENTERPRISE}:department`, value: "Deck" }),
    );
    const off = await scim(
      "patch",
      `/Users/${created.body.id}`,
      key,
      patchOp(
        { op: "Replace", path: "active", value: "False" },
        { op: "Replace", path: `${ENTERPRISE}:department`, value: "Laundry" },
        { op: "Replace", path: "displayName", value: "Leaver" },
      ),
    );
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      active: false,
      displayName: "Leaver",
      [ENTERPRISE]: { department: "Laundry" },
    });
    expect(await user(companyId, created.body.id)).toMatchObject({
      status: "deactivated",
      departmentId: "dep-deck",
      unmatchedDepartment: "Laundry",
    });
    expect(await seatsUsed(companyId)).toBe(0);
    expect((await auth().getUser(created.body.id)).disabled).toBe(true);
  });

  it("Okta: a PUT with an unknown department applies everything else; /v1/users keeps its 400", async () => {
    const { key } = await scimCompany();
    const email = address();
    const { body } = await scim("post", "/Users", key, {
      userName: email,
      [ENTERPRISE]: { department: "Engine" },
    });
    const put = await scim("put", `/Users/${body.id}`, key, {
      schemas: [URN.user, ENTERPRISE],
      userName: email,
      displayName: "Per Dahl",
      active: false,
      [ENTERPRISE]: { department: "Unknown" },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      displayName: "Per Dahl",
      active: false,
      [ENTERPRISE]: { department: "Unknown" },
    });
    // The app keeps the user in Engine until a department named Unknown exists.
    expect((await company.send("get", `/v1/users/${body.id}`, key)).body.data).toMatchObject({
      department: "Engine",
    });
    const v1 = await company.send("post", "/v1/users", key, {
      email: address(),
      display_name: "X",
      department: "Unknown",
    });
    expect(v1.status).toBe(400);
  });

  it("a taken userName beside active=false: the deactivation is applied and the conflict still answered", async () => {
    const { companyId, key } = await scimCompany();
    const [mine, theirs] = [address(), address()];
    const { body } = await scim("post", "/Users", key, { userName: mine });
    await scim("post", "/Users", key, { userName: theirs });
    const res = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", value: { active: false, userName: theirs } }),
    );
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ scimType: "uniqueness" });
    expect(await user(companyId, body.id)).toMatchObject({ status: "deactivated", userName: mine });
    expect((await auth().getUser(body.id)).disabled).toBe(true);
  });
});

describe("3. roles as clients really send them", () => {
  it("Entra ID without aadOptscim062020: an app role as a JSON string inside value is parsed and mapped", async () => {
    const { companyId, key } = await scimCompany();
    const { body } = await scim("post", "/Users", key, { userName: address() });
    const role = JSON.stringify({
      id: "06b07648-ecfe-589f-9d2f-6325724a46ee",
      value: "Manager",
      displayName: "Manager",
    });
    const res = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "Add", path: "roles", value: [{ value: role }] }),
    );
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual([{ value: "manager", primary: true }]);
    expect((await user(companyId, body.id))?.role).toBe("manager");
  });

  it("Okta's full-profile PUT without roles or department keeps an app-assigned role and department by default", async () => {
    const { companyId, key } = await scimCompany();
    const email = address();
    const { body } = await scim("post", "/Users", key, {
      userName: email,
      [ENTERPRISE]: { department: "Deck" },
    });
    await firestore().doc(`users/${body.id}`).update({ role: "inspector" });
    const put = await scim("put", `/Users/${body.id}`, key, {
      schemas: [URN.user],
      userName: email,
      name: { givenName: "Per", familyName: "Dahl" },
      emails: [{ value: email, primary: true }],
      active: true,
    });
    expect(put.body).toMatchObject({
      roles: [{ value: "inspector", primary: true }],
      [ENTERPRISE]: { department: "Deck" },
    });
    expect(await user(companyId, body.id)).toMatchObject({
      role: "inspector",
      departmentId: "dep-deck",
    });
  });

  it("with the identity provider as the source, the same PUT resets the role and clears the department", async () => {
    const { companyId, key } = await scimCompany(undefined, {
      provisioningRolesSource: "identityProvider",
      provisioningDepartmentSource: "identityProvider",
    });
    const email = address();
    const { body } = await scim("post", "/Users", key, {
      userName: email,
      roles: [{ value: "Inspector", primary: true }],
      [ENTERPRISE]: { department: "Deck" },
    });
    const put = await scim("put", `/Users/${body.id}`, key, {
      schemas: [URN.user],
      userName: email,
      active: true,
    });
    expect(put.body).toMatchObject({ roles: [{ value: "standard", primary: true }] });
    expect(put.body[ENTERPRISE]).toBeUndefined();
    expect(await user(companyId, body.id)).toMatchObject({ role: "standard", departmentId: null });
  });

  it("a value that merely equals an app role's name grants nothing unmapped; owner is never granted", async () => {
    const { key } = await scimCompany();
    const unmapped = await scim("post", "/Users", key, {
      userName: address(),
      roles: [{ value: "inspector ", primary: true }],
    });
    expect(unmapped.body.roles).toEqual([{ value: "inspector", primary: true }]);
    const { key: bare } = await scimCompany(undefined, { provisioningRoleMap: {} });
    for (const value of ["manager", "Inspector", "owner", "admin"]) {
      expect(
        (
          await scim("post", "/Users", bare, {
            userName: address(),
            roles: [{ value, primary: true }],
          })
        ).body.roles,
      ).toEqual([{ value: "standard", primary: true }]);
    }
  });
});

describe("4. owners and Key Users in the sync", () => {
  it("a request that changes nothing protected succeeds; a role sent for them is not applied; the only owner's deactivation is a clear 403", async () => {
    const { companyId, key } = await scimCompany();
    const [owner, keyUser] = [randomId("u"), randomId("u")];
    const ownerEmail = address();
    await seedUser(owner, {
      companyId,
      email: ownerEmail,
      role: "owner",
      keyUser: true,
      status: "active",
      createdAt: new Date(),
    });
    await seedUser(keyUser, {
      companyId,
      email: address(),
      role: "manager",
      keyUser: true,
      status: "active",
      createdAt: new Date(),
    });
    const sync = await scim("put", `/Users/${owner}`, key, {
      schemas: [URN.user],
      userName: ownerEmail,
      externalId: "aad-1",
      name: { givenName: "Olga" },
      roles: [{ value: "Inspector", primary: true }],
      active: true,
    });
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({
      externalId: "aad-1",
      roles: [{ value: "owner", primary: true }],
    });
    const moved = await scim(
      "patch",
      `/Users/${owner}`,
      key,
      patchOp({ op: "replace", path: "emails", value: [{ value: address(), primary: true }] }),
    );
    // Only the address is left out (audited): nothing else was asked, so the owner is unchanged.
    expect(moved.status).toBe(200);
    expect(moved.body.emails).toEqual([{ value: ownerEmail, type: "work", primary: true }]);
    const alone = await scim(
      "patch",
      `/Users/${owner}`,
      key,
      patchOp({ op: "replace", value: { active: false } }),
    );
    expect(alone.status).toBe(403);
    expect(alone.body).toEqual({
      schemas: [URN.error],
      status: "403",
      detail: expect.stringContaining("only active owner"),
    });
    // A Key User is deactivated while the owner stays; with a second owner, the first can go too.
    expect(
      (
        await scim(
          "patch",
          `/Users/${keyUser}`,
          key,
          patchOp({ op: "replace", value: { active: false } }),
        )
      ).body.active,
    ).toBe(false);
    await seedUser(randomId("u"), {
      companyId,
      email: address(),
      role: "owner",
      status: "active",
      createdAt: new Date(),
    });
    expect((await scim("delete", `/Users/${owner}`, key)).status).toBe(204);
    expect(await user(companyId, owner)).toMatchObject({
      status: "deactivated",
      removedAt: expect.anything(),
    });
  });
});
