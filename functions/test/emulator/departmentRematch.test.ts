import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { nameToRematch, rematchDepartment } from "../../src/services/departmentRematch";
import { randomId } from "../support/builders";
import { scim, scimCompany } from "../support/scim";

/**
 * Issue 26, "Departments and roles": a department the provider named before it existed is given
 * to its users when it is created or renamed. The trigger's logic (services/departmentRematch.ts)
 * is called directly against the Firestore emulator; a test through the Functions runtime waits
 * for `emulators.mjs stack`.
 */
async function provisionedWithDepartment(key: string, department: string) {
  const created = await scim("post", "/Users", key, {
    schemas: [URN.user, URN.enterprise],
    userName: `${randomId("u")}@${randomId("d")}.example`,
    [URN.enterprise]: { department },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

describe("department re-match", () => {
  it("a created department reaches users who sent its name; the change is audited; a retry does nothing", async () => {
    const { companyId, key } = await scimCompany();
    const galley = await provisionedWithDepartment(key, " Galley ");
    const other = await provisionedWithDepartment(key, "Bridge");
    expect((await firestore().doc(`users/${galley}`).get()).data()).toMatchObject({
      departmentId: null,
      unmatchedDepartment: "Galley",
    });

    const after = { name: "galley", parentId: null };
    expect(nameToRematch(undefined, after)).toBe("galley");
    await firestore().doc(`companies/${companyId}/departments/dep-galley`).set(after);
    expect(await rematchDepartment(companyId, { id: "dep-galley", name: "galley" })).toBe(1);

    expect((await firestore().doc(`users/${galley}`).get()).data()).toMatchObject({
      departmentId: "dep-galley",
      unmatchedDepartment: null,
    });
    expect((await firestore().doc(`users/${other}`).get()).data()).toMatchObject({
      departmentId: null,
      unmatchedDepartment: "Bridge",
    });
    const read = await scim("get", `/Users/${galley}`, key);
    expect(read.body[URN.enterprise]).toEqual({ department: "galley" });
    const audit = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("target.id", "==", galley)
      .where("action", "==", "user.updated")
      .get();
    expect(audit.docs.map((d) => d.data().actor)).toEqual([
      { type: "system", id: "department-rematch", name: "Department re-match" },
    ]);
    expect(await rematchDepartment(companyId, { id: "dep-galley", name: "galley" })).toBe(0);
  });

  it("a rename re-matches; a write that keeps the name, or a deletion, does not", async () => {
    const { companyId, key } = await scimCompany();
    const user = await provisionedWithDepartment(key, "Bridge");
    expect(nameToRematch({ name: "Deck" }, { name: "deck " })).toBeNull();
    expect(nameToRematch({ name: "Deck" }, undefined)).toBeNull();
    expect(nameToRematch({ name: "Deck" }, { name: "Bridge" })).toBe("Bridge");
    expect(await rematchDepartment(companyId, { id: "dep-deck", name: "Bridge" })).toBe(1);
    expect((await firestore().doc(`users/${user}`).get()).data()).toMatchObject({
      departmentId: "dep-deck",
      unmatchedDepartment: null,
    });
  });
});
