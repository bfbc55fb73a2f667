import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { rematchRoles, roleSettingsChanged } from "../../src/services/roleRematch";
import { randomId, seedUser } from "../support/builders";
import { patchOp, scim, scimApi, scimCompany } from "../support/scim";

/**
 * Issue 26, "Departments and roles": the role value a provider sent is stored on the user, so a
 * role-map entry added later reaches existing users. The `roleRematch` trigger's logic
 * (services/roleRematch.ts) is called directly against the Firestore emulator; the stack test
 * (test/stack/roleRematch.test.ts) shows the trigger firing through the Functions runtime.
 */
const user = async (id: string) => (await firestore().doc(`users/${id}`).get()).data() ?? {};
const company = (id: string) => firestore().doc(`companies/${id}`);

async function provisioned(key: string, role?: string) {
  const created = await scim("post", "/Users", key, {
    schemas: [URN.user],
    userName: `${randomId("u")}@${randomId("d")}.example`,
    ...(role === undefined ? {} : { roles: [{ value: role, primary: true }] }),
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function rematchAudit(companyId: string, uid: string) {
  const audit = await firestore()
    .collection(`companies/${companyId}/auditLogs`)
    .where("target.id", "==", uid)
    .where("action", "==", "user.updated")
    .get();
  return audit.docs.map((d) => d.data()).filter((d) => d.actor.type === "system");
}

describe("role re-match", () => {
  it("SCIM stores the value sent beside the role it gave; /v1/users stores none", async () => {
    const { companyId, key } = await scimCompany();
    const deckhand = await provisioned(key, "Deckhand");
    const inspector = await provisioned(key, "Inspector");
    const none = await provisioned(key);
    expect(await user(deckhand)).toMatchObject({
      role: "standard",
      idpRole: "Deckhand",
      idpRoleMappedTo: "standard",
    });
    expect(await user(inspector)).toMatchObject({
      role: "inspector",
      idpRole: "Inspector",
      idpRoleMappedTo: "inspector",
    });
    expect(await user(none)).toMatchObject({ idpRole: null, idpRoleMappedTo: "standard" });

    // A PATCH that changes roles records the new value, also when the role it maps to is the same.
    const patched = await scim(
      "patch",
      `/Users/${deckhand}`,
      key,
      patchOp({ op: "replace", path: "roles", value: [{ value: "Cook", primary: true }] }),
    );
    expect(patched.status).toBe(200);
    expect(await user(deckhand)).toMatchObject({ role: "standard", idpRole: "Cook" });
    // The provider sending back the app role it read changes nothing stored.
    const echo = await scim(
      "patch",
      `/Users/${inspector}`,
      key,
      patchOp({ op: "replace", path: "roles", value: [{ value: "inspector", primary: true }] }),
    );
    expect(echo.status).toBe(200);
    expect(await user(inspector)).toMatchObject({ role: "inspector", idpRole: "Inspector" });

    const v1 = await scimApi.send("post", "/v1/users", key, {
      email: `${randomId("v")}@${randomId("d")}.example`,
      display_name: "Via v1",
    });
    expect(v1.status).toBe(201);
    const stored = await user(v1.body.data.id as string);
    expect(stored.role).toBe("standard");
    expect(stored).not.toHaveProperty("idpRole");
    expect(stored.companyId).toBe(companyId);
  });

  it("a map entry added later reaches the users who sent the value; audited; a retry does nothing", async () => {
    const { companyId, key } = await scimCompany();
    const deckhand = await provisioned(key, "Deckhand");
    const cook = await provisioned(key, "Cook");
    const before = (await company(companyId).get()).data();
    await company(companyId).update({ "provisioningRoleMap.deckhand ": "inspector" });
    expect(roleSettingsChanged(before, (await company(companyId).get()).data())).toBe(true);

    expect(await rematchRoles(companyId)).toBe(1);
    expect(await user(deckhand)).toMatchObject({ role: "inspector", idpRoleMappedTo: "inspector" });
    expect(await user(cook)).toMatchObject({ role: "standard" });
    const read = await scim("get", `/Users/${deckhand}`, key);
    expect(read.body.roles).toEqual([{ value: "inspector", primary: true }]);
    expect(await rematchAudit(companyId, deckhand)).toEqual([
      expect.objectContaining({
        class: "privileged",
        actor: { type: "system", id: "role-rematch", name: "Role re-match" },
      }),
    ]);
    expect(await rematchRoles(companyId)).toBe(0);
    expect(await rematchAudit(companyId, deckhand)).toHaveLength(1);

    // Removing the entry takes the role back to `standard` (it was provisioning's to give).
    await company(companyId).update({ provisioningRoleMap: { Inspector: "inspector" } });
    expect(await rematchRoles(companyId)).toBe(1);
    expect(await user(deckhand)).toMatchObject({ role: "standard", idpRoleMappedTo: "standard" });
  });

  it("never grants an elevated role, never changes the owner or a Key User or a removed user", async () => {
    const { companyId, key } = await scimCompany();
    const [boss, keyUser, owner, removed] = await Promise.all(
      ["Boss", "Crew", "Crew", "Crew"].map((v) => provisioned(key, v)),
    );
    await firestore().doc(`users/${keyUser}`).update({ keyUser: true });
    await firestore().doc(`users/${owner}`).update({ role: "owner" });
    expect((await scim("delete", `/Users/${removed}`, key)).status).toBe(204);

    await company(companyId).update({
      provisioningRolesSource: "identityProvider",
      provisioningRoleMap: { Boss: "owner", Crew: "manager", Admin: "admin" },
    });
    expect(await rematchRoles(companyId)).toBe(0);
    expect(await user(boss)).toMatchObject({ role: "standard" });
    expect(await user(owner)).toMatchObject({ role: "owner" });
    expect(await user(keyUser)).toMatchObject({ role: "standard", keyUser: true });
    expect(await user(removed)).toMatchObject({ role: "standard" });

    // The Key User keeps a role the app gave them when the map no longer grants it either.
    await firestore().doc(`users/${keyUser}`).update({ role: "manager" });
    await company(companyId).update({ provisioningRoleMap: {} });
    expect(await rematchRoles(companyId)).toBe(0);
    expect(await user(keyUser)).toMatchObject({ role: "manager" });
  });

  it("with source app a role the app changed stays; with identityProvider the provider's value wins", async () => {
    const { companyId, key } = await scimCompany();
    const changedInApp = await provisioned(key, "Deckhand");
    const untouched = await provisioned(key, "Deckhand");
    await firestore().doc(`users/${changedInApp}`).update({ role: "manager" });

    await company(companyId).update({ "provisioningRoleMap.Deckhand": "inspector" });
    expect(await rematchRoles(companyId)).toBe(1);
    expect(await user(untouched)).toMatchObject({ role: "inspector" });
    expect(await user(changedInApp)).toMatchObject({ role: "manager" });

    const before = (await company(companyId).get()).data();
    await company(companyId).update({ provisioningRolesSource: "identityProvider" });
    expect(roleSettingsChanged(before, (await company(companyId).get()).data())).toBe(true);
    expect(await rematchRoles(companyId)).toBe(1);
    expect(await user(changedInApp)).toMatchObject({ role: "inspector" });

    // Under identityProvider, a PUT without roles resets the role and the value sent.
    const read = await scim("get", `/Users/${untouched}`, key);
    const replace = {
      ...(read.body as Record<string, unknown>),
      roles: undefined,
      meta: undefined,
    };
    expect((await scim("put", `/Users/${untouched}`, key, replace)).status).toBe(200);
    expect(await user(untouched)).toMatchObject({
      role: "standard",
      idpRole: null,
      idpRoleMappedTo: "standard",
    });
    expect(await rematchRoles(companyId)).toBe(0);
  });

  it("other writes of the company are no change of the role settings", () => {
    const map = { Inspector: "inspector", "Fleet Manager": "manager" };
    const stored = { seatsUsed: 3, provisioningRoleMap: map, provisioningRolesSource: "app" };
    expect(roleSettingsChanged(stored, { ...stored, seatsUsed: 4, name: "Renamed" })).toBe(false);
    const reordered = { "Fleet Manager": "manager", Inspector: "inspector" };
    expect(roleSettingsChanged(stored, { ...stored, provisioningRoleMap: reordered })).toBe(false);
    expect(roleSettingsChanged(stored, undefined)).toBe(false);
    expect(roleSettingsChanged(stored, { ...stored, provisioningRoleMap: {} })).toBe(true);
    expect(roleSettingsChanged({ seatsUsed: 0 }, stored)).toBe(true);
  });

  it("re-matches more users than one transaction takes (chunks of 200)", async () => {
    const { companyId } = await scimCompany();
    const batch = firestore().batch();
    const ids = Array.from({ length: 205 }, () => randomId("u"));
    for (const id of ids)
      batch.set(firestore().doc(`users/${id}`), {
        companyId,
        email: `${id}@example.com`,
        displayName: id,
        role: "standard",
        status: "active",
        departmentId: null,
        provisionedBy: "scim",
        idpRole: "Deckhand",
        idpRoleMappedTo: "standard",
        createdAt: new Date(),
        updatedAt: new Date(),
      });
    await batch.commit();
    await seedUser(randomId("app"), { companyId, role: "standard" });
    await company(companyId).update({ "provisioningRoleMap.Deckhand": "manager" });
    expect(await rematchRoles(companyId)).toBe(205);
    const managers = await firestore()
      .collection("users")
      .where("companyId", "==", companyId)
      .where("role", "==", "manager")
      .count()
      .get();
    expect(managers.data().count).toBe(205);
    expect(await rematchRoles(companyId)).toBe(0);
  });
});
