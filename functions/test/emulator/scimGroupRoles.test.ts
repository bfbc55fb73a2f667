import { firestore } from "../../src/config/firebase";
import { rematchGroups } from "../../src/services/groupSweep";
import { randomId, seedRoster } from "../support/builders";
import { countReads } from "../support/readCounter";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 38 (items 1, 2, 4, 6): group roles follow the memberships and the map as they are now,
 * whatever the order of events; a request's reads stay within the budget (2,500 documents);
 * membership changes are audited with the ids added and removed.
 */
const MAP = { Managers: { role: "manager" }, Inspectors: { role: "inspector" } };
const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data() ?? {};
const setMap = (companyId: string, map: unknown) =>
  firestore().doc(`companies/${companyId}`).update({ provisioningGroupMap: map });

async function people(key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await scim("post", "/Users", key, {
      userName: `${randomId("m")}@example.com`,
      roles: [{ value: "Inspector", primary: true }],
    });
    ids.push(res.body.id as string);
  }
  return ids;
}

const roster = (companyId: string, n: number, groups: string[] = []) =>
  seedRoster(companyId, n, { scimGroups: groups });

const group = async (key: string, displayName: string, members: string[] = []) =>
  (
    await scim("post", "/Groups", key, {
      displayName,
      members: members.map((value) => ({ value })),
    })
  ).body.id as string;

describe("group roles follow the memberships and the map as they are now", () => {
  it("emptying or deleting the map takes back the roles it gave; a stale role never returns", async () => {
    const { companyId, key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: MAP },
    );
    const [u, v] = await people(key, 2);
    const managers = await group(key, "Managers", [u, v]);
    expect(await stored(u)).toMatchObject({ role: "manager", groupRole: "manager" });

    // The operator empties the map (the roleRematch trigger runs this).
    await setMap(companyId, {});
    await rematchGroups(companyId);
    expect(await stored(u)).toMatchObject({ role: "inspector", groupRole: null });
    // A later PATCH of roles does not bring the stale group role back.
    await scim(
      "patch",
      `/Users/${u}`,
      key,
      patchOp({ op: "replace", path: "roles", value: [{ value: "Inspector", primary: true }] }),
    );
    expect(await stored(u)).toMatchObject({ role: "inspector", groupRole: null });

    // With the map back, then the group deleted while the map is gone: nothing is left behind.
    await setMap(companyId, MAP);
    await rematchGroups(companyId);
    expect(await stored(v)).toMatchObject({ role: "manager", groupRole: "manager" });
    await firestore().doc(`companies/${companyId}`).update({ provisioningGroupMap: null });
    expect((await scim("delete", `/Groups/${managers}`, key)).status).toBe(204);
    expect(await stored(v)).toMatchObject({ role: "inspector", groupRole: null });
    await setMap(companyId, MAP);
    await rematchGroups(companyId);
    expect(await stored(v)).toMatchObject({ role: "inspector", groupRole: null });
  });

  it("two concurrent changes (out of Managers, into Inspectors) leave an inspector, 20 times", async () => {
    const { key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: MAP },
    );
    const [u] = await people(key, 1);
    const managers = await group(key, "Managers", [u]);
    const inspectors = await group(key, "Inspectors");
    for (let round = 0; round < 20; round++) {
      expect(await stored(u)).toMatchObject({ role: "manager" });
      const [out, into] = await Promise.all([
        scim(
          "patch",
          `/Groups/${managers}`,
          key,
          patchOp({ op: "remove", path: `members[value eq "${u}"]` }),
        ),
        scim(
          "patch",
          `/Groups/${inspectors}`,
          key,
          patchOp({ op: "add", path: "members", value: [{ value: u }] }),
        ),
      ]);
      expect([out.status, into.status]).toEqual([200, 200]);
      expect(await stored(u)).toMatchObject({
        role: "inspector",
        groupRole: "inspector",
        groupRoleDueAt: null,
      });
      // Back, concurrently the other way round: into Managers, out of Inspectors.
      await Promise.all([
        scim(
          "patch",
          `/Groups/${inspectors}`,
          key,
          patchOp({ op: "remove", path: `members[value eq "${u}"]` }),
        ),
        scim(
          "patch",
          `/Groups/${managers}`,
          key,
          patchOp({ op: "add", path: "members", value: [{ value: u }] }),
        ),
      ]);
    }
  }, 600_000);

  it("membership changes are audited with the ids added and removed, with or before the change", async () => {
    const { companyId, key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: MAP },
    );
    const [a, b, c] = await people(key, 3);
    const id = await group(key, "Deck", [a, b]);
    await scim(
      "patch",
      `/Groups/${id}`,
      key,
      patchOp(
        { op: "add", path: "members", value: [{ value: c }] },
        { op: "remove", path: `members[value eq "${a}"]` },
      ),
    );
    await scim("delete", `/Groups/${id}`, key);
    const entries = (
      await firestore()
        .collection(`companies/${companyId}/auditLogs`)
        .where("target.id", "==", id)
        .get()
    ).docs
      .map((d) => d.data())
      .sort((x, y) => x.at.toMillis() - y.at.toMillis());
    expect(entries.map((e) => [e.action, e.members])).toEqual(
      [
        ["group.created", { added: [a, b].sort(), removed: [] }],
        ["group.updated", { added: [c], removed: [a] }],
        ["group.deleted", { added: [], removed: [] }],
        // A deletion's members leave by page, each audited with its ids, after the deletion.
        ["group.members_removed", { added: [], removed: [b, c].sort() }],
      ].map(([action, m]) => [
        action,
        {
          added: expect.arrayContaining((m as { added: string[] }).added),
          removed: expect.arrayContaining((m as { removed: string[] }).removed),
        },
      ]),
    );
    expect(entries[0].members.added).toHaveLength(2);
    expect(entries[3].members.removed).toHaveLength(2);
  });
});

describe("a request's reads stay within the budget", () => {
  const BUDGET = 2_500;

  it("a page of groups whose members exceed what one answer lists is refused, at a bounded cost", async () => {
    const { companyId, key } = await scimCompany();
    const big = await group(key, "Everyone");
    await roster(companyId, 2_001, [big]);
    for (let i = 0; i < 5; i++) await group(key, `Team ${i}`);
    const listing = await countReads(() => scim("get", "/Groups?count=200", key));
    expect(listing.result.status).toBe(400);
    expect(listing.result.body).toMatchObject({ scimType: "tooMany" });
    expect(listing.reads).toBeLessThan(50);
    const one = await countReads(() => scim("get", `/Groups/${big}`, key));
    expect(one.result.status).toBe(400);
    // What Entra ID and Okta send: no members, a few reads.
    const lean = await countReads(() =>
      scim("get", "/Groups?count=200&excludedAttributes=members", key),
    );
    expect(lean.result.status).toBe(200);
    expect(lean.result.body.totalResults).toBe(6);
    expect(lean.reads).toBeLessThan(20);
    // A write's answer leaves the members out, the change applies.
    const patched = await scim(
      "patch",
      `/Groups/${big}`,
      key,
      patchOp({ op: "replace", value: { displayName: "All hands" } }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.members).toBeUndefined();
    console.log(
      `reads: listing refused ${listing.reads}, one group ${one.reads}, lean page ${lean.reads}`,
    );
  });

  it("a listing with members reads them within the budget", async () => {
    const { companyId, key } = await scimCompany();
    const crew = await group(key, "Crew");
    await roster(companyId, 2_000, [crew]);
    const page = await countReads(() => scim("get", "/Groups?count=200", key));
    expect(page.result.status).toBe(200);
    expect(page.result.body.Resources[0].members).toHaveLength(2_000);
    expect(page.reads).toBeLessThanOrEqual(BUDGET);
    console.log(`reads: a 2,000-member group listed ${page.reads}`);
  });

  it("unknown member ids are refused after the first page of lookups; 1,000 real ones fit the budget", async () => {
    const { companyId, key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: MAP },
    );
    const id = await group(key, "Managers");
    const unknown = Array.from({ length: 1_000 }, () => ({ value: randomId("ghost") }));
    const refused = await countReads(() =>
      scim("patch", `/Groups/${id}`, key, patchOp({ op: "add", path: "members", value: unknown })),
    );
    expect(refused.result.status).toBe(400);
    expect(refused.reads).toBeLessThan(320);
    const tooMany = Array.from({ length: 1_001 }, () => ({ value: randomId("ghost") }));
    expect(
      (
        await scim(
          "patch",
          `/Groups/${id}`,
          key,
          patchOp({ op: "add", path: "members", value: tooMany }),
        )
      ).status,
    ).toBe(400);

    const members = await roster(companyId, 1_000);
    const added = await countReads(() =>
      scim(
        "patch",
        `/Groups/${id}`,
        key,
        patchOp({ op: "add", path: "members", value: members.map((value) => ({ value })) }),
      ),
    );
    expect(added.result.status).toBe(200);
    expect(added.reads).toBeLessThanOrEqual(BUDGET);
    expect(await stored(members[999])).toMatchObject({ role: "manager", groupRoleDueAt: null });
    console.log(`reads: 1,000 unknown ids ${refused.reads}, 1,000 members added ${added.reads}`);
  });
});
