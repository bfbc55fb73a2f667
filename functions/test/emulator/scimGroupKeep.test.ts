import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { rematchGroups, SWEEP_AFTER_MS, sweepGroupRoles } from "../../src/services/groupSweep";
import { seedRoster } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 34's leftover: members added while a removal of every member is pending are kept on the
 * pending record (`keep`), which must stay far below Firestore's 1 MiB document limit. A change
 * that would keep more than 5,000 is refused whole with SCIM 400 `tooMany`; once the removal has
 * finished the same request succeeds.
 */
const MEMBERS = 2_600;
const KEEP_MAX = 5_000;
const sweep = () => sweepGroupRoles(Timestamp.fromMillis(Date.now() + SWEEP_AFTER_MS), 5_000);
const add = (ids: string[]) =>
  patchOp({ op: "add", path: "members", value: ids.map((value) => ({ value })) });
const groupsOf = async (id: string) =>
  ((await firestore().doc(`users/${id}`).get()).get("scimGroups") as string[] | undefined) ?? [];

jest.setTimeout(900_000);

it("a pending removal keeps at most 5,000 members added meanwhile; more is 400 tooMany", async () => {
  const { companyId, key } = await scimCompany({ seatCapacity: 10, seatsUsed: 0 });
  const group = (await scim("post", "/Groups", key, { displayName: "Crew" })).body.id as string;
  const leaving = await seedRoster(companyId, MEMBERS, { scimGroups: [group] });
  const fresh = await seedRoster(companyId, KEEP_MAX + 1_000);
  const removeAll = patchOp({ op: "remove", path: "members" });
  expect((await scim("patch", `/Groups/${group}`, key, removeAll)).status).toBe(200);

  // Five requests of 1,000 each move the removal on by a page and stay within the cap.
  for (let i = 0; i < KEEP_MAX; i += 1_000)
    expect(
      (await scim("patch", `/Groups/${group}`, key, add(fresh.slice(i, i + 1_000)))).status,
    ).toBe(200);
  const record = firestore().doc(`groupRematches/${companyId}_${group}`);
  expect(((await record.get()).get("keep") as string[]).length).toBe(KEEP_MAX);

  const over = fresh.slice(KEEP_MAX);
  const refused = await scim("patch", `/Groups/${group}`, key, add(over));
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ status: "400", scimType: "tooMany" });
  expect(String(refused.body.detail)).toMatch(/still removing this group's members/);
  // Nothing of the refused change was written.
  expect(((await record.get()).get("keep") as string[]).length).toBe(KEEP_MAX);
  expect(await groupsOf(over[0])).toEqual([]);

  // The sweep finishes the removal: the kept members stay, the others have left.
  await sweep();
  expect((await record.get()).exists).toBe(false);
  expect(await groupsOf(fresh[0])).toEqual([group]);
  expect(await groupsOf(fresh[KEEP_MAX - 1])).toEqual([group]);
  expect(await groupsOf(leaving[MEMBERS - 1])).toEqual([]);
  // The refused request, sent again, is taken.
  expect((await scim("patch", `/Groups/${group}`, key, add(over))).status).toBe(200);
  expect(await groupsOf(over[0])).toEqual([group]);
});

it("a record kept over the cap before it existed still takes a rename and the map's re-match", async () => {
  const { companyId, key } = await scimCompany();
  const group = { schemas: [URN.group], displayName: "One" };
  const id = (await scim("post", "/Groups", key, group)).body.id as string;
  const keep = Array.from({ length: KEEP_MAX + 1 }, (_, i) => `u${i}`);
  await firestore()
    .doc(`groupRematches/${companyId}_${id}`)
    .set({
      ...{ companyId, groupId: id, kind: "removal", keep, cursor: null, version: "v1" },
      ...{ origin: { type: "system", id: "t", name: "t" }, at: Timestamp.now() },
    });
  const rename = patchOp({ op: "replace", value: { displayName: "Uno" } });
  const renamed = await scim("patch", `/Groups/${id}`, key, rename);
  expect([renamed.status, renamed.body.displayName]).toEqual([200, "Uno"]);
  await expect(rematchGroups(companyId, 1_000)).resolves.not.toThrow();
});
