import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { SWEEP_AFTER_MS, sweepGroupRoles } from "../../src/services/groupSweep";
import { seedRoster } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Two changes of one mapped group at once, as a provider's parallel requests send them: the change
 * that commits second must not write back what the first changed (a rename, a deletion), and the
 * group map's role must follow the name that is stored at the end. Each race runs 20 rounds.
 */
jest.setTimeout(600_000);

/** Users of the company, members of `groups` (managers by the map when they are in one). */
const users = (
  companyId: string,
  n: number,
  groups: string[],
  extra: Record<string, unknown> = {},
) =>
  seedRoster(companyId, n, {
    role: groups.length ? "manager" : "standard",
    groupRole: groups.length ? "manager" : null,
    scimGroups: groups,
    ...extra,
  });

async function officers() {
  const { companyId, key } = await scimCompany(
    { seatCapacity: 10, seatsUsed: 0 },
    { provisioningGroupMap: { Officers: { role: "manager" } } },
  );
  const id = (await scim("post", "/Groups", key, { displayName: "Officers" })).body.id as string;
  return { companyId, key, id };
}

const roleOf = async (id: string) =>
  (await firestore().doc(`users/${id}`).get()).get("role") as string;

it("a rename racing an add keeps the new name; no one keeps the old name's role", async () => {
  const wrong: string[] = [];
  for (let round = 0; round < 20; round++) {
    const { companyId, key, id } = await officers();
    const members = await users(companyId, 3, [id]);
    const [x] = await users(companyId, 1, []);
    const rename = patchOp({ op: "replace", value: { id, displayName: "Crew" } });
    const add = patchOp({ op: "add", path: "members", value: [{ value: x }] });
    const answers = await Promise.all([
      scim("patch", `/Groups/${id}`, key, rename),
      scim("patch", `/Groups/${id}`, key, add),
    ]);
    const group = await firestore().doc(`companies/${companyId}/scimGroups/${id}`).get();
    const roles = await Promise.all([...members, x].map(roleOf));
    const outcome = [...answers.map((a) => a.status), group.get("displayName"), ...roles].join(" ");
    if (answers.some((a) => a.status !== 200) || group.get("displayName") !== "Crew")
      wrong.push(outcome);
    else if (roles.includes("manager")) wrong.push(outcome);
  }
  expect(wrong).toEqual([]);
});

it("a deletion racing an add leaves no group behind, and the member no role", async () => {
  const wrong: string[] = [];
  for (let round = 0; round < 20; round++) {
    const { companyId, key, id } = await officers();
    await users(companyId, 3, [id]);
    const [x] = await users(companyId, 1, []);
    const add = patchOp({ op: "add", path: "members", value: [{ value: x }] });
    const [patched, deleted] = await Promise.all([
      scim("patch", `/Groups/${id}`, key, add),
      scim("delete", `/Groups/${id}`, key),
    ]);
    const group = await firestore().doc(`companies/${companyId}/scimGroups/${id}`).get();
    const get = await scim("get", `/Groups/${id}`, key);
    const outcome = `patch ${patched.status} delete ${deleted.status} get ${get.status}`;
    // The add either committed first (200) or found the group gone (404); the deletion wins.
    if (deleted.status !== 204 || ![200, 404].includes(patched.status)) wrong.push(outcome);
    else if (group.exists || get.status !== 404) wrong.push(`${outcome}: the group is back`);
    else if ((await roleOf(x)) === "manager")
      wrong.push(`${outcome}: a manager by a deleted group`);
  }
  expect(wrong).toEqual([]);
});

it("a company renaming a large group in a loop does not hold the sweep from others", async () => {
  const a = await officers();
  await users(a.companyId, 2_000, [a.id]);
  const b = await officers();
  // Company B: a member left a group, and the instance stopped before the role was taken back.
  const long = Timestamp.fromMillis(Date.now() - 6 * SWEEP_AFTER_MS);
  const stale = { role: "manager", groupRole: "manager", groupRoleDueAt: long };
  const [victim] = await users(b.companyId, 1, [], stale);
  let stop = false;
  let renames = 0;
  const loop = (async () => {
    while (!stop) {
      const displayName = renames++ % 2 ? "Officers" : "Crew";
      const rename = patchOp({ op: "replace", value: { displayName } });
      await scim("patch", `/Groups/${a.id}`, a.key, rename);
    }
  })();
  await new Promise((done) => setTimeout(done, 1_000));
  await sweepGroupRoles(Timestamp.now(), 500, 30_000);
  stop = true;
  await loop;
  expect(renames).toBeGreaterThan(1);
  const after = await firestore().doc(`users/${victim}`).get();
  expect(after.get("groupRoleDueAt")).toBeFalsy();
  expect(after.get("role")).toBe("standard");
});
