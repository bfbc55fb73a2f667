import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { SWEEP_AFTER_MS, sweepGroupRoles } from "../../src/services/groupSweep";
import { seedRoster } from "../support/builders";
import { countReads } from "../support/readCounter";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 38, item 4: a change that reaches every member of a 3,000-member mapped group (a rename,
 * `remove` of `members` without a filter, a PUT with `members: []`, a DELETE) stays within the
 * read budget of a request (docs/scim-connector.md, "Read budget"); the sweep finishes it, and
 * then no member keeps the role the group gave.
 */
const MEMBERS = 3_000;
const BUDGET = 2_500;
const NAMES = ["Officers", "Deck", "Engine", "Bridge"];
const MAP = Object.fromEntries(NAMES.map((name) => [name, { role: "manager" }]));

/** `n` users of the company in the group, each a manager by it. */
const roster = (companyId: string, n: number, group: string) =>
  seedRoster(companyId, n, { role: "manager", groupRole: "manager", scimGroups: [group] });

/** How many of `ids` are in each state: role, groupRole, still in the group, marked due. */
async function states(ids: string[], group: string) {
  const count: Record<string, number> = {};
  for (let i = 0; i < ids.length; i += 500) {
    const refs = ids.slice(i, i + 500).map((id) => firestore().doc(`users/${id}`));
    for (const s of await firestore().getAll(...refs)) {
      const inGroup = ((s.get("scimGroups") as string[] | undefined) ?? []).includes(group);
      const state = [
        s.get("role"),
        s.get("groupRole") ?? "-",
        inGroup ? "in" : "out",
        s.get("groupRoleDueAt") ? "due" : "done",
      ].join("/");
      count[state] = (count[state] ?? 0) + 1;
    }
  }
  return count;
}

const schemas = ["urn:ietf:params:scim:schemas:core:2.0:Group"];
const sweep = () => sweepGroupRoles(Timestamp.fromMillis(Date.now() + SWEEP_AFTER_MS), 5_000);

describe("a change reaching every member of a 3,000-member group", () => {
  jest.setTimeout(900_000);

  it("stays within the read budget, and the sweep takes back every role the group gave", async () => {
    const { companyId, key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: MAP },
    );
    const groups: Record<string, { id: string; ids: string[] }> = {};
    for (const name of NAMES) {
      const id = (await scim("post", "/Groups", key, { displayName: name })).body.id as string;
      groups[name] = { id, ids: await roster(companyId, MEMBERS, id) };
    }
    const { Officers, Deck, Engine, Bridge } = groups;
    const rename = patchOp({ op: "replace", value: { id: Officers.id, displayName: "Former" } });
    const requests = {
      rename: () => scim("patch", `/Groups/${Officers.id}`, key, rename),
      removeAll: () =>
        scim("patch", `/Groups/${Deck.id}`, key, patchOp({ op: "remove", path: "members" })),
      putEmpty: () =>
        scim("put", `/Groups/${Engine.id}`, key, { schemas, displayName: "Engine", members: [] }),
      delete: () => scim("delete", `/Groups/${Bridge.id}`, key),
    };
    const reads: Record<string, number> = {};
    for (const [name, send] of Object.entries(requests)) {
      const { result, reads: n } = await countReads(send);
      expect(result.status).toBe(name === "delete" ? 204 : 200);
      reads[name] = n;
    }
    console.log(`reads on a ${MEMBERS}-member group:`, reads);
    for (const n of Object.values(reads)) expect(n).toBeLessThanOrEqual(BUDGET);
    // The request took one page of members; the others still hold the group's role.
    expect((await states(Deck.ids, Deck.id))["manager/manager/in/done"]).toBeGreaterThan(2_000);

    const swept = await sweep();
    expect(swept.pages).toBeGreaterThanOrEqual(4 * 7);
    expect(await states(Officers.ids, Officers.id)).toEqual({ [`standard/-/in/done`]: MEMBERS });
    for (const { id, ids } of [Deck, Engine, Bridge])
      expect(await states(ids, id)).toEqual({ [`standard/-/out/done`]: MEMBERS });
    // Who took the members off: the key, in entries of at most 400 ids, every member once.
    const entries = await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("action", "==", "group.members_removed")
      .where("target.id", "==", Bridge.id)
      .get();
    const removed = entries.docs.flatMap((d) => d.get("members.removed") as string[]);
    expect(removed.sort()).toEqual([...Bridge.ids].sort());
    expect(entries.docs.every((d) => d.get("actor.type") === "api_key")).toBe(true);
  });

  it("a replacement keeps the members it names and those added while the others leave", async () => {
    const { companyId, key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: MAP },
    );
    const id = (await scim("post", "/Groups", key, { displayName: "Officers" })).body.id as string;
    const ids = await roster(companyId, 450, id);
    const [kept, again] = [ids[0], ids[449]];
    const fresh = (await roster(companyId, 1, "other"))[0];
    const put = await scim("put", `/Groups/${id}`, key, {
      schemas,
      displayName: "Officers",
      members: [{ value: kept }],
    });
    expect(put.status).toBe(200);
    // The provider adds a member still leaving, and a new one, before the sweep ran.
    const add = patchOp({
      op: "add",
      path: "members",
      value: [{ value: again }, { value: fresh }],
    });
    expect((await scim("patch", `/Groups/${id}`, key, add)).status).toBe(200);
    await sweep();
    const left = await scim("get", `/Groups/${id}`, key);
    const members = (left.body.members as Array<{ value: string }>).map((m) => m.value);
    expect(members.sort()).toEqual([kept, again, fresh].sort());
    expect(await states([kept, again, fresh], id)).toEqual({ "manager/manager/in/done": 3 });
    expect((await states(ids, id))["standard/-/out/done"]).toBe(448);
  });
});
