import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 26: SCIM Groups as Okta's Group Push and Entra ID's group provisioning send them,
 * replayed through HTTP against the emulators (their request sequences, the answers they need).
 */
type Resource = Record<string, unknown>;
const ids = (group: Resource) =>
  ((group.members as Array<{ value: string }> | undefined) ?? []).map((m) => m.value).sort();

async function company(users = 3) {
  const { companyId, key } = await scimCompany({ seatCapacity: 50, seatsUsed: 0 });
  const members: string[] = [];
  for (let i = 0; i < users; i++) {
    const res = await scim("post", "/Users", key, { userName: `${randomId("m")}@example.com` });
    members.push(res.body.id as string);
  }
  return { companyId, key, members };
}

const groupEntries = async (companyId: string, id: string) =>
  (await firestore().collection(`companies/${companyId}/auditLogs`).get()).docs
    .map((d) => d.data())
    .filter((e) => e.target?.type === "group" && e.target.id === id)
    .map((e) => e.action as string)
    .sort();

describe("SCIM Groups", () => {
  it("Okta Group Push: lookup, POST, member adds and removes, rename, PUT with members, DELETE", async () => {
    const { companyId, key, members } = await company(3);
    const [a, b, c] = members;
    // Okta looks the group up by name first.
    const lookup = await scim(
      "get",
      `/Groups?filter=${encodeURIComponent('displayName eq "Deck Crew"')}`,
      key,
    );
    expect(lookup.body).toMatchObject({ totalResults: 0, Resources: [] });
    const created = await scim("post", "/Groups", key, {
      schemas: [URN.group],
      displayName: "Deck Crew",
      members: [],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.headers.location).toMatch(new RegExp(`/scim/v2/Groups/${id}$`));
    expect(created.body).toMatchObject({
      schemas: [URN.group],
      displayName: "Deck Crew",
      meta: { resourceType: "Group", location: created.headers.location },
    });
    expect(created.body).not.toHaveProperty("members"); // none: left out (RFC 7643 §2.5)
    const added = await scim(
      "patch",
      `/Groups/${id}`,
      key,
      patchOp({ op: "add", path: "members", value: [{ value: a, display: "A" }, { value: b }] }),
    );
    expect(added.status).toBe(200);
    expect(ids(added.body)).toEqual([a, b].sort());
    expect(added.body.members[0]).toMatchObject({
      $ref: expect.stringMatching(/\/Users\//),
      type: "User",
    });
    const removed = await scim(
      "patch",
      `/Groups/${id}`,
      key,
      patchOp({ op: "remove", path: `members[value eq "${a}"]` }),
    );
    expect(ids(removed.body)).toEqual([b]);
    // Okta renames with a path-less replace carrying the id.
    const renamed = await scim(
      "patch",
      `/Groups/${id}`,
      key,
      patchOp({ op: "replace", value: { id, displayName: "Deck crew (all)" } }),
    );
    expect(renamed.body).toMatchObject({ displayName: "Deck crew (all)" });
    expect(ids(renamed.body)).toEqual([b]);
    // Older Okta apps PUT the whole group; members left out are kept, [] clears.
    const put = await scim("put", `/Groups/${id}`, key, {
      schemas: [URN.group],
      id,
      displayName: "Deck crew (all)",
      members: [{ value: a }, { value: c }],
    });
    expect(ids(put.body)).toEqual([a, c].sort());
    const rename = await scim("put", `/Groups/${id}`, key, {
      schemas: [URN.group],
      displayName: "Deck",
    });
    expect(ids(rename.body)).toEqual([a, c].sort());
    expect((await scim("get", `/Groups/${id}`, key)).body).toMatchObject({ displayName: "Deck" });
    expect((await firestore().doc(`users/${a}`).get()).get("scimGroups")).toEqual([id]);

    expect((await scim("delete", `/Groups/${id}`, key)).status).toBe(204);
    expect((await scim("get", `/Groups/${id}`, key)).status).toBe(404);
    expect((await firestore().doc(`users/${a}`).get()).get("scimGroups")).toEqual([]);
    expect(await groupEntries(companyId, id)).toEqual([
      "group.created",
      "group.deleted",
      // The PUT that replaced the members and the deletion: those leaving, audited by page.
      "group.members_removed",
      "group.members_removed",
      "group.updated",
      "group.updated",
      "group.updated",
      "group.updated",
      "group.updated",
    ]);
  });

  it("Entra ID: displayName lookup without members, POST, member add and Remove with value, membership check, rename, DELETE", async () => {
    const { key, members } = await company(2);
    const [a, b] = members;
    const created = await scim("post", "/Groups", key, {
      schemas: [URN.group],
      externalId: "8f1c-aad",
      displayName: "Engine",
    });
    const id = created.body.id as string;
    const found = await scim(
      "get",
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "engine"')}`,
      key,
    );
    expect(found.body.Resources).toEqual([
      expect.objectContaining({ id, displayName: "Engine", externalId: "8f1c-aad" }),
    ]);
    expect(found.body.Resources[0]).not.toHaveProperty("members");
    expect(
      (
        await scim(
          "patch",
          `/Groups/${id}`,
          key,
          patchOp({ op: "Add", path: "members", value: [{ value: a }, { value: b }] }),
        )
      ).status,
    ).toBe(200);
    // Entra's membership check before and after a change.
    const check = (user: string) =>
      scim(
        "get",
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`id eq "${id}" and members[value eq "${user}"]`)}`,
        key,
      );
    expect((await check(a)).body.totalResults).toBe(1);
    expect(
      (
        await scim(
          "patch",
          `/Groups/${id}`,
          key,
          patchOp({ op: "Remove", path: "members", value: [{ value: a }] }),
        )
      ).status,
    ).toBe(200);
    expect((await check(a)).body.totalResults).toBe(0);
    expect((await check(b)).body.totalResults).toBe(1);
    const one = await scim("get", `/Groups/${id}?excludedAttributes=members`, key);
    expect(one.body).not.toHaveProperty("members");
    const renamed = await scim(
      "patch",
      `/Groups/${id}`,
      key,
      patchOp({ op: "Replace", path: "displayName", value: "Engine room" }),
    );
    expect(renamed.body.displayName).toBe("Engine room");
    expect((await scim("delete", `/Groups/${id}`, key)).status).toBe(204);
  });

  it("refuses another company's user, an unknown id, a taken name and a blank one, all or nothing", async () => {
    const { key, members } = await company(1);
    const other = await company(1);
    const { body } = await scim("post", "/Groups", key, { displayName: "Bridge" });
    const refusedAdd = await scim(
      "patch",
      `/Groups/${body.id}`,
      key,
      patchOp({
        op: "add",
        path: "members",
        value: [{ value: members[0] }, { value: other.members[0] }, { value: "nobody" }],
      }),
    );
    expect(refusedAdd.status).toBe(400);
    expect(refusedAdd.body).toMatchObject({ schemas: [URN.error], scimType: "invalidValue" });
    expect(refusedAdd.body.detail).toContain(JSON.stringify(other.members[0]));
    expect(refusedAdd.body.detail).toContain('"nobody"');
    expect(ids((await scim("get", `/Groups/${body.id}`, key)).body)).toEqual([]);
    const twin = await scim("post", "/Groups", key, { displayName: " bridge " });
    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({ scimType: "uniqueness" });
    // Another company may have its own Bridge.
    expect((await scim("post", "/Groups", other.key, { displayName: "Bridge" })).status).toBe(201);
    const blank = await scim("post", "/Groups", key, { displayName: "  " });
    expect(blank.status).toBe(400);
    expect((await scim("get", `/Groups/${body.id}`, other.key)).status).toBe(404);
    const badFilter = await scim(
      "get",
      `/Groups?filter=${encodeURIComponent('displayName co "B"')}`,
      key,
    );
    expect(badFilter.body).toMatchObject({ scimType: "invalidFilter" });
    const noTarget = await scim("patch", `/Groups/${body.id}`, key, patchOp({ op: "remove" }));
    expect(noTarget.body).toMatchObject({ scimType: "noTarget" });
  });

  it("repeating a change changes nothing; pages by startIndex and count", async () => {
    const { companyId, key, members } = await company(1);
    const made: string[] = [];
    for (const name of ["G1", "G2", "G3"])
      made.push((await scim("post", "/Groups", key, { displayName: name })).body.id as string);
    const add = patchOp({ op: "add", path: "members", value: [{ value: members[0] }] });
    await scim("patch", `/Groups/${made[0]}`, key, add);
    await scim("patch", `/Groups/${made[0]}`, key, add);
    expect(await groupEntries(companyId, made[0])).toEqual(["group.created", "group.updated"]);
    const page = await scim("get", "/Groups?startIndex=2&count=1&excludedAttributes=members", key);
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0].id).toBe(made[1]);
    const byMember = await scim(
      "get",
      `/Groups?filter=${encodeURIComponent(`members[value eq "${members[0]}"]`)}`,
      key,
    );
    expect(byMember.body.Resources.map((g: Resource) => g.id)).toEqual([made[0]]);
  });
});
