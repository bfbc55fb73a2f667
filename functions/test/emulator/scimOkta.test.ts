import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seatsUsed, seedKey } from "../support/builders";
import { expectSeatRetry, scim, scimCompany } from "../support/scim";

/** Okta's request sequence, paging, seats and discovery, through HTTP against the emulators. */
const address = () => `${randomId("o")}@okta.example`;
const oktaUser = (email: string) => ({
  schemas: [URN.user],
  userName: email,
  name: { givenName: "Per", familyName: "Dahl" },
  emails: [{ primary: true, value: email, type: "work" }],
  displayName: "Per Dahl",
  locale: "en-US",
  externalId: randomId("00u"),
  groups: [],
  password: "ignored-Pa55",
  active: true,
});

describe("SCIM with Okta", () => {
  it("imports, creates, refuses a duplicate, replaces, deactivates and reactivates the way Okta does", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 3, seatsUsed: 0 });
    const email = address();
    const lookup = await scim(
      "get",
      `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`,
      key,
    );
    expect(lookup.body).toEqual({
      schemas: [URN.listResponse],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const created = await scim("post", "/Users", key, oktaUser(email));
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const duplicate = await scim("post", "/Users", key, oktaUser(email.toUpperCase()));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      schemas: [URN.error],
      status: "409",
      scimType: "uniqueness",
      detail: expect.any(String),
    });

    // PUT is a full replace: the name's family part and the department left out are cleared; the
    // external id its POST sent and its PUT leaves out is kept (Okta's PUT never resends it).
    await scim("patch", `/Users/${id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "add", path: `${URN.enterprise}:department`, value: "Deck" }],
    });
    const replaced = await scim("put", `/Users/${id}`, key, {
      schemas: [URN.user],
      id: "ignored",
      userName: email,
      name: { givenName: "Per" },
      active: true,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id,
      userName: email,
      name: { givenName: "Per" },
      displayName: "Per",
      active: true,
      [URN.enterprise]: {},
    });
    expect(replaced.body.name.familyName).toBeUndefined();
    expect(replaced.body.externalId).toBe(created.body.externalId);
    expect(created.body.externalId).toEqual(expect.any(String));

    // Deactivate with a path-less replace; reactivate takes a seat again.
    const off = await scim("patch", `/Users/${id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.body.active).toBe(false);
    expect(await seatsUsed(companyId)).toBe(0);
    expect((await auth().getUser(id)).disabled).toBe(true);
    const on = await scim("patch", `/Users/${id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", value: { active: true } }],
    });
    expect(on.body.active).toBe(true);
    expect(await seatsUsed(companyId)).toBe(1);
    expect((await auth().getUser(id)).disabled).toBe(false);
    expect((await firestore().doc(`users/${id}`).get()).get("status")).toBe("invited");
  });

  it("pages with startIndex and count, integers throughout, removed users neither counted nor listed", async () => {
    const { key } = await scimCompany({ seatCapacity: 20, seatsUsed: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (await scim("post", "/Users", key, { userName: address(), displayName: `U${i}` })).body.id,
      );
    await scim("delete", `/Users/${ids[1]}`, key);
    await scim("delete", `/Users/${ids[4]}`, key);
    const live = ids.filter((_, i) => i !== 1 && i !== 4);
    const seen: string[] = [];
    for (let startIndex = 1; ; startIndex += 2) {
      const page = await scim("get", `/Users?startIndex=${startIndex}&count=2`, key);
      expect(page.body).toMatchObject({
        totalResults: 5,
        startIndex,
        itemsPerPage: Math.min(2, 5 - startIndex + 1),
      });
      seen.push(...page.body.Resources.map((u: { id: string }) => u.id));
      if (startIndex + 2 > page.body.totalResults) break;
    }
    expect(seen).toEqual(live);
    expect((await scim("get", "/Users?count=0", key)).body).toMatchObject({
      totalResults: 5,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await scim("get", "/Users?startIndex=0&count=1", key)).body).toMatchObject({
      startIndex: 1,
      Resources: [{ id: live[0] }],
    });
    expect((await scim("get", "/Users?startIndex=9", key)).body).toMatchObject({
      totalResults: 5,
      itemsPerPage: 0,
    });
    const bad = await scim("get", "/Users?count=ten", key);
    expect(bad.body).toMatchObject({
      status: "400",
      scimType: "invalidValue",
      detail: expect.stringContaining("count"),
    });
  });

  it('refuses a user beyond the seat capacity with a 429 to retry (not 409: Okta reads that as "exists"), naming it, and creates nothing', async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 1, seatsUsed: 1 });
    const email = address();
    const res = await scim("post", "/Users", key, oktaUser(email));
    expectSeatRetry(res, 1);
    expect(
      await auth()
        .getUserByEmail(email)
        .catch(() => null),
    ).toBeNull();
    expect(
      (await firestore().collection("users").where("companyId", "==", companyId).get()).size,
    ).toBe(0);
    // A user created inactive takes no seat.
    const inactive = await scim("post", "/Users", key, { ...oktaUser(address()), active: false });
    expect(inactive.status).toBe(201);
    expect(inactive.body.active).toBe(false);
    expect(await seatsUsed(companyId)).toBe(1);
    const reactivate = await scim("patch", `/Users/${inactive.body.id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", value: { active: true } }],
    });
    expect(reactivate.status).toBe(429);
    expect(reactivate.headers["retry-after"]).toBe("600");
    expect(reactivate.body.detail).toMatch(/seat/);
  });

  it("serves ServiceProviderConfig, ResourceTypes and Schemas (User and Group); an empty Groups search, an unknown group 404", async () => {
    const { key } = await scimCompany();
    const config = await scim("get", "/ServiceProviderConfig", key);
    expect(config.body).toMatchObject({
      schemas: [URN.serviceProviderConfig],
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      changePassword: { supported: false },
      authenticationSchemes: [{ type: "oauthbearertoken", primary: true }],
    });
    const types = await scim("get", "/ResourceTypes", key);
    expect(types.body.Resources).toEqual([
      expect.objectContaining({ id: "User", endpoint: "/Users", schema: URN.user }),
      expect.objectContaining({ id: "Group", endpoint: "/Groups", schema: URN.group }),
    ]);
    expect((await scim("get", "/ResourceTypes/Group", key)).body).toMatchObject({ id: "Group" });
    const schemas = await scim("get", "/Schemas", key);
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([
      URN.user,
      URN.enterprise,
      URN.group,
    ]);
    expect(
      (await scim("get", `/Schemas/${URN.enterprise}`, key)).body.attributes.map(
        (a: { name: string }) => a.name,
      ),
    ).toEqual([
      "department",
      "employeeNumber",
      "costCenter",
      "organization",
      "division",
      "manager",
    ]);
    expect(
      (await scim("get", `/Schemas/${URN.group}`, key)).body.attributes.map(
        (a: { name: string }) => a.name,
      ),
    ).toEqual(["id", "externalId", "displayName", "members"]);
    // Entra ID's default mapping searches groups by displayName before anything else.
    for (const query of [
      "",
      `?filter=${encodeURIComponent('displayName eq "Crew"')}`,
      "?startIndex=1&count=100",
    ]) {
      const list = await scim("get", `/Groups${query}`, key);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        schemas: [URN.listResponse],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });
    }
    const malformed = await scim(
      "get",
      `/Groups?filter=${encodeURIComponent('displayName eq "Crew')}`,
      key,
    );
    expect(malformed.body).toMatchObject({
      schemas: [URN.error],
      status: "400",
      scimType: "invalidFilter",
    });
    const one = await scim("get", "/Groups/g1", key);
    expect(one.body).toMatchObject({ schemas: [URN.error], status: "404" });
  });

  it("takes exactly the free seats when reactivations race", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 10, seatsUsed: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await scim("post", "/Users", key, { userName: address(), active: false })).body.id);
    await firestore().doc(`companies/${companyId}`).update({ seatCapacity: 2 });
    const results = await Promise.all(
      ids.map((id) =>
        scim("patch", `/Users/${id}`, key, {
          schemas: [URN.patchOp],
          Operations: [{ op: "Replace", path: "active", value: "True" }],
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await seatsUsed(companyId)).toBe(2);
    const active = await firestore()
      .collection("users")
      .where("companyId", "==", companyId)
      .where("status", "==", "invited")
      .get();
    expect(active.size).toBe(2);
  });

  it("an e-mail change to an address another user has is 409 uniqueness, and changes neither the user nor the sign-in account", async () => {
    const { key } = await scimCompany();
    const [first, second] = [address(), address()];
    const { body: user } = await scim("post", "/Users", key, { userName: first });
    await scim("post", "/Users", key, { userName: second });
    const res = await scim("patch", `/Users/${user.id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", path: "userName", value: second.toUpperCase() }],
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: "409", scimType: "uniqueness" });
    expect((await scim("get", `/Users/${user.id}`, key)).body.userName).toBe(first);
    expect((await auth().getUser(user.id)).email).toBe(first);
  });

  it("rate limits a burst like any key: 429 as a SCIM error with Retry-After", async () => {
    const { companyId } = await scimCompany();
    const key = (
      await seedKey({
        api: "company",
        companyId,
        scopes: ["read", "provisioning"],
        rateLimits: { perMinute: 1 },
      })
    ).key;
    // Three in a row: at most one minute boundary falls between them, so one is refused.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await scim("get", "/ServiceProviderConfig", key));
    const limited = statuses.find((r) => r.status === 429)!;
    expect(statuses[0].status).toBe(200);
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.body).toEqual({
      schemas: [URN.error],
      status: "429",
      detail: expect.stringContaining("Rate limit"),
    });
  });
});
