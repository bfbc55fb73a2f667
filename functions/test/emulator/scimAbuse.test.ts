import { auth, firestore } from "../../src/config/firebase";
import { rosterWindow } from "../../src/repos/users";
import { URN } from "../../src/scim/routeKit";
import { randomId, seatsUsed } from "../support/builders";
import { countReads } from "../support/readCounter";
import { patchOp, scim, scimApi, scimCompany } from "../support/scim";

/**
 * Issue 15, abuse and cost: company domains, no cross-tenant oracle, sessions ending with access,
 * page cost, and a concurrent mix.
 */
const tokensValidAfter = async (uid: string) =>
  Date.parse((await auth().getUser(uid)).tokensValidAfterTime ?? "0");
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("company e-mail domains", () => {
  it("refuses addresses outside the domains with a clear 400 and tells nothing about other companies' users", async () => {
    const own = `${randomId("own")}.example`;
    const { key } = await scimCompany(undefined, { provisioningDomains: [own] });
    const other = await scimCompany();
    const theirs = `someone@${randomId("their")}.example`;
    expect((await scim("post", "/Users", other.key, { userName: theirs })).status).toBe(201);
    // The same answer whether or not the address exists elsewhere: the domain decides first.
    for (const address of [theirs, `nobody@${randomId("x")}.example`]) {
      const res = await scim("post", "/Users", key, { userName: address });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        schemas: [URN.error],
        status: "400",
        scimType: "invalidValue",
        detail: expect.stringContaining(`its domains are ${own}`),
      });
    }
    const v1 = await scimApi.send("post", "/v1/users", key, { email: theirs, display_name: "X" });
    expect(v1.status).toBe(400);
    expect(v1.body.error.message).toContain("not one of the company's e-mail domains");
    const mine = await scim("post", "/Users", key, {
      userName: "jdoe",
      emails: [{ value: `JDoe@${own.toUpperCase()}`, primary: true }],
    });
    expect(mine.status).toBe(201);
    // An e-mail change is held to the domains too, and nothing changes.
    const moved = await scim(
      "patch",
      `/Users/${mine.body.id}`,
      key,
      patchOp({
        op: "replace",
        path: "emails",
        value: [{ value: `jdoe@${randomId("x")}.example`, primary: true }],
      }),
    );
    expect(moved.status).toBe(400);
    expect((await auth().getUser(mine.body.id)).email).toBe(`jdoe@${own}`);
  });

  it("an inactive POST and a DELETE reserve nothing: the address can be provisioned again at once", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 1, seatsUsed: 1 });
    const address = `squat@${randomId("s")}.example`;
    const squat = await scim("post", "/Users", key, { userName: address, active: false });
    expect(squat.status).toBe(201);
    expect(await seatsUsed(companyId)).toBe(1);
    expect((await scim("delete", `/Users/${squat.body.id}`, key)).status).toBe(204);
    expect((await scim("post", "/Users", key, { userName: address, active: false })).status).toBe(
      201,
    );
  });
});

describe("sign-in ends when access ends", () => {
  it("deactivation and an e-mail change revoke the refresh tokens; removal deletes the account", async () => {
    const { key } = await scimCompany();
    const domain = `${randomId("t")}.example`;
    const { body } = await scim("post", "/Users", key, { userName: `t1@${domain}` });
    const created = await tokensValidAfter(body.id);
    await pause(1100); // tokensValidAfterTime has a resolution of one second
    await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", path: "userName", value: `t2@${domain}` }),
    );
    const afterMove = await tokensValidAfter(body.id);
    expect(afterMove).toBeGreaterThan(created);
    expect((await auth().getUser(body.id)).email).toBe(`t2@${domain}`);
    await pause(1100);
    await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", value: { active: false } }),
    );
    expect(await tokensValidAfter(body.id)).toBeGreaterThan(afterMove);
    await scim("delete", `/Users/${body.id}`, key);
    await expect(auth().getUser(body.id)).rejects.toMatchObject({ code: "auth/user-not-found" });
  });
});

describe("GET /scim/v2/Users cost", () => {
  it("a page costs the same whatever the number of removed users", async () => {
    const costs: number[] = [];
    for (const removedCount of [0, 30]) {
      const { companyId, key } = await scimCompany({ seatCapacity: 100, seatsUsed: 0 });
      const ids: string[] = [];
      for (let i = 0; i < 3 + removedCount; i++)
        ids.push(
          (
            await scim("post", "/Users", key, {
              userName: `u${i}@${companyId.toLowerCase()}.example`,
            })
          ).body.id,
        );
      for (const id of ids.slice(3)) await scim("delete", `/Users/${id}`, key);
      const { result: page, reads } = await countReads(() => rosterWindow(companyId, 1, 2));
      expect(page).toMatchObject({ total: 3, users: [{ id: ids[1] }, { id: ids[2] }] });
      expect((await scim("get", "/Users?startIndex=2&count=2", key)).body).toMatchObject({
        totalResults: 3,
        Resources: [{ id: ids[1] }, { id: ids[2] }],
      });
      costs.push(reads);
    }
    expect(costs[1]).toBe(costs[0]);
  });
});

describe("a random concurrent mix of SCIM creates, PUTs, PATCHes and DELETEs", () => {
  it("leaves seatsUsed equal to the seated users and every Auth account matching the roster: no drift, no orphan", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 5, seatsUsed: 0 });
    const domain = `${companyId.toLowerCase()}.example`;
    const pool = Array.from({ length: 8 }, (_, i) => `p${i}@${domain}`);
    let seed = 15;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const ids: string[] = [];
    for (const address of pool.slice(0, 4))
      ids.push((await scim("post", "/Users", key, { userName: address })).body.id);
    const operations = Array.from({ length: 40 }, () => {
      const id = ids[random(ids.length)];
      switch (random(5)) {
        case 0:
          return scim("post", "/Users", key, {
            userName: pool[random(pool.length)],
            active: random(2) === 0,
          });
        case 1:
          return scim("put", `/Users/${id}`, key, {
            schemas: [URN.user],
            userName: pool[random(pool.length)],
            displayName: "Put",
            active: random(2) === 0,
          });
        case 2:
          return scim(
            "patch",
            `/Users/${id}`,
            key,
            patchOp({ op: "replace", value: { active: random(2) === 0 } }),
          );
        case 3:
          return scim(
            "patch",
            `/Users/${id}`,
            key,
            patchOp({
              op: "replace",
              path: "emails",
              value: [{ value: pool[random(pool.length)], primary: true }],
            }),
          );
        default:
          return scim("delete", `/Users/${id}`, key);
      }
    });
    const results = await Promise.all(operations);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    const users = (await firestore().collection("users").where("companyId", "==", companyId).get())
      .docs;
    const live = users.filter((d) => !d.get("removedAt"));
    const seated = live.filter((d) => ["invited", "active"].includes(d.get("status")));
    expect(await seatsUsed(companyId)).toBe(seated.length);
    expect(seated.length).toBeLessThanOrEqual(5);
    expect(new Set(live.map((d) => d.get("email"))).size).toBe(live.length);
    for (const doc of live) {
      const account = await auth().getUser(doc.id);
      expect({ id: doc.id, email: account.email, disabled: account.disabled }).toEqual({
        id: doc.id,
        email: doc.get("email"),
        disabled: !seated.includes(doc),
      });
    }
    for (const doc of users.filter((d) => d.get("removedAt")))
      await expect(auth().getUser(doc.id)).rejects.toMatchObject({ code: "auth/user-not-found" });
    for (const address of pool) {
      const holder = await auth()
        .getUserByEmail(address)
        .catch(() => null);
      if (holder) expect(live.map((d) => d.id)).toContain(holder.uid);
    }
  });
});
