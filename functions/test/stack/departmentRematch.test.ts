import { firestore } from "../../src/config/firebase";
import { randomId, seedCompany } from "../support/builders";

/*
 * Issue 26, "Departments and roles", through the real Functions runtime: creating or renaming a
 * department reaches the `departmentRematch` trigger only through the Firestore emulator's
 * trigger delivery (nothing here calls it), and gives the department to the users whose
 * provider sent its name before it existed.
 */
async function seedUnmatched(companyId: string, unmatchedDepartment: string) {
  const ref = firestore().collection("users").doc(randomId("u"));
  await ref.set({
    companyId,
    email: `${ref.id}@example.com`,
    displayName: "Crew member",
    role: "standard",
    status: "active",
    departmentId: null,
    unmatchedDepartment,
    provisionedBy: "scim",
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  return ref;
}

/** The user's departmentId once it is `expected`, within 30 s. */
async function departmentOf(ref: FirebaseFirestore.DocumentReference, expected: string | null) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = (await ref.get()).get("departmentId") as string | null;
    if (value === expected || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("department re-match through the Functions runtime", () => {
  it("a created department and a renamed one reach the users who sent their names, and nobody else", async () => {
    const companyId = await seedCompany();
    const galley = await seedUnmatched(companyId, " Galley ");
    const engine = await seedUnmatched(companyId, "Engine room");
    const stranger = await seedUnmatched(await seedCompany(), "Galley");
    const departments = firestore().collection(`companies/${companyId}/departments`);

    await departments.doc("dep-galley").set({ name: "galley", parentId: null });
    expect(await departmentOf(galley, "dep-galley")).toBe("dep-galley");
    expect((await galley.get()).get("unmatchedDepartment")).toBeNull();

    await departments.doc("dep-engine").set({ name: "Engine", parentId: null });
    await departments.doc("dep-engine").set({ name: "Engine Room", parentId: null });
    expect(await departmentOf(engine, "dep-engine")).toBe("dep-engine");

    // The other company's user, who named a department of the same name, was never touched.
    expect((await stranger.get()).data()).toMatchObject({
      departmentId: null,
      unmatchedDepartment: "Galley",
    });
  });
});
