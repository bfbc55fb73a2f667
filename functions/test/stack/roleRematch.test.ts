import { firestore } from "../../src/config/firebase";
import { randomId, seedCompany } from "../support/builders";

/*
 * Issue 26, "Departments and roles", through the real Functions runtime: a change of the
 * company's role map reaches the `roleRematch` trigger only through the Firestore emulator's
 * trigger delivery (nothing here calls it), and maps the stored provider value of the company's
 * provisioned users again; a write of another company field changes nobody.
 */
async function seedProvisioned(companyId: string, fields: Record<string, unknown>) {
  const ref = firestore().collection("users").doc(randomId("u"));
  await ref.set({
    companyId,
    email: `${ref.id}@example.com`,
    displayName: "Crew member",
    role: "standard",
    status: "active",
    departmentId: null,
    provisionedBy: "scim",
    idpRole: "Deckhand",
    idpRoleMappedTo: "standard",
    createdAt: new Date(),
    updatedAt: new Date(),
    ...fields,
  });
  return ref;
}

/** The user's role once it is `expected`, within 30 s. */
async function roleOf(ref: FirebaseFirestore.DocumentReference, expected: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = (await ref.get()).get("role") as string;
    if (value === expected || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("role re-match through the Functions runtime", () => {
  it("a role-map entry added later reaches the provisioned users who sent the value, and nobody else", async () => {
    const companyId = await seedCompany({ provisioningRoleMap: { Inspector: "inspector" } });
    const deckhand = await seedProvisioned(companyId, {});
    const keyUser = await seedProvisioned(companyId, { keyUser: true });
    const changedInApp = await seedProvisioned(companyId, { role: "manager" });
    const stranger = await seedProvisioned(await seedCompany(), {});

    // Another write of the company (the seat counter) changes nobody: the map did not change.
    await firestore().doc(`companies/${companyId}`).update({ seatsUsed: 3 });
    await firestore()
      .doc(`companies/${companyId}`)
      .update({ "provisioningRoleMap.Deckhand": "inspector" });
    expect(await roleOf(deckhand, "inspector")).toBe("inspector");
    expect((await deckhand.get()).get("idpRoleMappedTo")).toBe("inspector");
    const audit = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("target.id", "==", deckhand.id)
      .get();
    expect(audit.docs.map((d) => d.get("actor.id"))).toEqual(["role-rematch"]);

    // Then: who owns roles switches to the provider, so the role the app gave yields too.
    await firestore()
      .doc(`companies/${companyId}`)
      .update({ provisioningRolesSource: "identityProvider" });
    expect(await roleOf(changedInApp, "inspector")).toBe("inspector");

    expect((await keyUser.get()).get("role")).toBe("standard");
    expect((await stranger.get()).get("role")).toBe("standard");
  });

  it("a group-map entry added later reaches the members of that group, and the role wins over the role map", async () => {
    // Seeded without maps, so the company's creation re-matches nobody (the trigger sees no map
    // change).
    const companyId = await seedCompany();
    const group = firestore().collection(`companies/${companyId}/scimGroups`).doc(randomId("g"));
    await group.set({ displayName: "Officers", displayNameKey: "officers", externalId: null });
    const member = await seedProvisioned(companyId, { scimGroups: [group.id] });
    const outsider = await seedProvisioned(companyId, {});
    // Both maps in one write: the role map's re-match runs first, then the group map's wins.
    await firestore()
      .doc(`companies/${companyId}`)
      .update({
        provisioningRoleMap: { Deckhand: "inspector" },
        provisioningGroupMap: { Officers: { role: "manager" } },
      });
    expect(await roleOf(member, "manager")).toBe("manager");
    expect((await member.get()).get("groupRole")).toBe("manager");
    expect(await roleOf(outsider, "inspector")).toBe("inspector");
    const audit = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("target.id", "==", member.id)
      .get();
    expect(audit.docs.map((d) => d.get("actor.id")).sort()).toEqual([
      "group-rematch",
      "role-rematch",
    ]);
  });
});
