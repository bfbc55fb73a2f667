import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { SWEEP_AFTER_MS, sweepGroupRoles } from "../../src/services/groupSweep";
import { randomId, seedRoster } from "../support/builders";
import { randomAddress } from "../support/http";
import { patchOp, scim, scimCompany } from "../support/scim";
import { arm, startServer } from "./fault/faultProcess";

/**
 * Issue 38, item 2: the company API in a forked process is SIGKILLed in the middle of a large
 * group change (the members' lists committed, their roles not yet applied). The provider's retry
 * on a fresh process, or else the sweep, gives every member the role the group map gives.
 */
const MEMBERS = 900;

/** A PATCH of the group; its status, or null when the server died before answering. */
async function patch(url: string, key: string, group: string, body: unknown) {
  return fetch(`${url}/scim/v2/Groups/${group}`, {
    method: "PATCH",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/scim+json",
      "X-Forwarded-For": randomAddress(),
    },
    body: JSON.stringify(body),
  }).then(
    (res) => res.status,
    () => null,
  );
}

const addAll = (url: string, key: string, group: string, ids: string[]) =>
  patch(
    url,
    key,
    group,
    patchOp({ op: "add", path: "members", value: ids.map((value) => ({ value })) }),
  );

async function largeGroup() {
  const { companyId, key } = await scimCompany(
    { seatCapacity: 10, seatsUsed: 0 },
    { provisioningGroupMap: { Officers: { role: "manager" } } },
  );
  const group = (await scim("post", "/Groups", key, { displayName: "Officers" })).body.id as string;
  const ids = await seedRoster(companyId, MEMBERS);
  return { key, group, ids };
}

const roles = async (ids: string[]) => {
  const snaps = await firestore().getAll(...ids.map((id) => firestore().doc(`users/${id}`)));
  const count = new Map<string, number>();
  for (const s of snaps) {
    const state = `${s.get("role")}/${s.get("groupRoleDueAt") ? "due" : "done"}`;
    count.set(state, (count.get(state) ?? 0) + 1);
  }
  return Object.fromEntries(count);
};

describe("a server killed in the middle of a large group change", () => {
  jest.setTimeout(300_000);

  it.each([
    ["the provider's retry", "retry"],
    ["the sweep, when no retry comes", "sweep"],
  ])("%s gives every member the mapped role", async (_name, recovery) => {
    const { key, group, ids } = await largeGroup();
    const first = await startServer();
    await arm(first, { fn: "settleUsers", nth: 1, when: "before" });
    expect(await addAll(first.url, key, group, ids)).toBeNull();
    // The members' lists committed, each marked due; no role applied.
    expect(await roles(ids)).toEqual({ "standard/due": MEMBERS });

    if (recovery === "retry") {
      const second = await startServer();
      expect(await addAll(second.url, key, group, ids)).toBe(200);
      second.child.kill();
    } else await sweepGroupRoles(Timestamp.fromMillis(Date.now() + SWEEP_AFTER_MS), 5_000);
    expect(await roles(ids)).toEqual({ "manager/done": MEMBERS });
  });
});

describe("a server killed between a rename of a mapped group and its re-match", () => {
  jest.setTimeout(120_000);
  const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data() ?? {};

  it.each([
    ["the provider's retry", "retry"],
    ["the sweep, when no retry comes", "sweep"],
  ])("%s takes back the role the old name gave", async (_name, recovery) => {
    const { key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningGroupMap: { Officers: { role: "manager" } } },
    );
    const user = await scim("post", "/Users", key, { userName: `${randomId("m")}@example.com` });
    const u = user.body.id as string;
    const officers = { displayName: "Officers", members: [{ value: u }] };
    const group = (await scim("post", "/Groups", key, officers)).body.id as string;
    expect(await stored(u)).toMatchObject({ role: "manager", groupRole: "manager" });

    const first = await startServer();
    await arm(first, { fn: "settleUsers", nth: 1, when: "before" });
    const rename = patchOp({ op: "replace", value: { id: group, displayName: "Former officers" } });
    expect(await patch(first.url, key, group, rename)).toBeNull();
    // The rename committed; the member's role not yet taken back.
    expect(await stored(u)).toMatchObject({ role: "manager", groupRole: "manager" });

    if (recovery === "retry") {
      const second = await startServer();
      expect(await patch(second.url, key, group, rename)).toBe(200);
      second.child.kill();
    } else await sweepGroupRoles(Timestamp.fromMillis(Date.now() + SWEEP_AFTER_MS), 5_000);
    const after = await stored(u);
    expect(after).toMatchObject({ role: "standard", groupRole: null, groupRoleDueAt: null });
  });
});
