import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 26: the operator's group map (`provisioningGroupMap`) gives members of pushed groups an
 * app role and a department; never an elevated role, never to the owner or a Key User.
 */
const GROUP_MAP = {
  "Deck crew": { role: "inspector", department: "Deck" },
  officers: { role: "manager" },
  Owners: { role: "owner" },
};
const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data() ?? {};
const updates = async (companyId: string, id: string) =>
  (await firestore().collection(`companies/${companyId}/auditLogs`).get()).docs
    .map((d) => d.data())
    .filter((e) => e.action === "user.updated" && e.target?.id === id);

describe("SCIM groups mapped to roles and departments", () => {
  it("membership gives the highest mapped role over roles, a mapped department, and leaving gives back what roles gives", async () => {
    const { companyId, key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: GROUP_MAP },
    );
    const user = await scim("post", "/Users", key, {
      userName: `${randomId("kari")}@example.com`,
      roles: [{ value: "Inspector", primary: true }],
    });
    const other = await scim("post", "/Users", key, { userName: `${randomId("ola")}@example.com` });
    const [u, o] = [user.body.id as string, other.body.id as string];
    expect(await stored(u)).toMatchObject({ role: "inspector", idpRole: "Inspector" });

    const officers = await scim("post", "/Groups", key, {
      schemas: [URN.group],
      displayName: "Officers",
      members: [{ value: u }],
    });
    expect(await stored(u)).toMatchObject({ role: "manager", groupRole: "manager" });
    const deck = await scim("post", "/Groups", key, { displayName: "DECK CREW" });
    await scim(
      "patch",
      `/Groups/${deck.body.id}`,
      key,
      patchOp({ op: "add", path: "members", value: [{ value: u }, { value: o }] }),
    );
    // u: manager wins over inspector; both get Deck.
    expect(await stored(u)).toMatchObject({ role: "manager", departmentId: "dep-deck" });
    expect(await stored(o)).toMatchObject({
      role: "inspector",
      groupRole: "inspector",
      departmentId: "dep-deck",
    });
    expect((await scim("get", `/Users/${o}`, key)).body).toMatchObject({
      roles: [{ value: "inspector" }],
      [URN.enterprise]: { department: "Deck" },
    });
    // A roles value the provider sends is recorded, but the group's role stays.
    const patched = await scim(
      "patch",
      `/Users/${o}`,
      key,
      patchOp({ op: "replace", path: "roles", value: [{ value: "Fleet Manager", primary: true }] }),
    );
    expect(patched.status).toBe(200);
    expect(await stored(o)).toMatchObject({ role: "inspector", idpRole: "Fleet Manager" });

    // Leaving the last role-mapped group: back to what roles gives; the department stays.
    await scim(
      "patch",
      `/Groups/${deck.body.id}`,
      key,
      patchOp({ op: "remove", path: `members[value eq "${o}"]` }),
    );
    expect(await stored(o)).toMatchObject({
      role: "manager",
      groupRole: null,
      departmentId: "dep-deck",
    });
    // A rename out of the map takes the role with it.
    await scim(
      "patch",
      `/Groups/${officers.body.id}`,
      key,
      patchOp({ op: "replace", value: { id: officers.body.id, displayName: "Former officers" } }),
    );
    expect(await stored(u)).toMatchObject({ role: "inspector", groupRole: "inspector" });
    expect((await scim("delete", `/Groups/${deck.body.id}`, key)).status).toBe(204);
    expect(await stored(u)).toMatchObject({ role: "inspector", groupRole: null });
    // Every change audited as the key's.
    expect((await updates(companyId, u)).length).toBeGreaterThanOrEqual(3);
    for (const entry of await updates(companyId, u))
      expect(entry).toMatchObject({ class: "privileged", actor: { type: "api_key" } });
  });

  it("never grants an elevated role, and never changes the owner's role", async () => {
    const { key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: GROUP_MAP },
    );
    const a = await scim("post", "/Users", key, { userName: `${randomId("a")}@example.com` });
    const boss = await scim("post", "/Users", key, { userName: `${randomId("boss")}@example.com` });
    await firestore().doc(`users/${boss.body.id}`).update({ role: "owner" });
    await scim("post", "/Groups", key, {
      displayName: "Owners",
      members: [{ value: a.body.id }, { value: boss.body.id }],
    });
    expect(await stored(a.body.id)).toMatchObject({ role: "standard" });
    await scim("post", "/Groups", key, {
      displayName: "Officers",
      members: [{ value: boss.body.id }],
    });
    expect(await stored(boss.body.id)).toMatchObject({ role: "owner" });
    expect((await stored(boss.body.id)).groupRole ?? null).toBeNull();
  });
});
