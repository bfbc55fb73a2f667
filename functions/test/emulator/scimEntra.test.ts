import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seatsUsed, seedKey } from "../support/builders";
import { auditEntriesFor } from "../support/http";
import { scim, scimApi, scimCompany } from "../support/scim";

/**
 * Microsoft Entra ID's request sequence, replayed through HTTP against the Firestore and Auth
 * emulators.
 */
const ENTERPRISE = URN.enterprise;
const address = () => `${randomId("e")}@contoso.example`;

const entraUser = (email: string, externalId: string) => ({
  schemas: [URN.user, ENTERPRISE],
  externalId,
  userName: email,
  active: true,
  displayName: "Ingrid Nilsen",
  emails: [{ primary: true, type: "work", value: email }],
  name: { formatted: "Ingrid Nilsen", familyName: "Nilsen", givenName: "Ingrid" },
  roles: [{ primary: "True", type: "WindowsAzureActiveDirectoryRole", value: "Inspector" }],
  title: "Second officer",
  [ENTERPRISE]: { department: "Deck", employeeNumber: "701" },
});

describe("SCIM with Microsoft Entra ID", () => {
  it("matches, creates, updates, deactivates and deletes a user the way Entra ID does", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 5, seatsUsed: 1 });
    const email = address();
    const externalId = randomId("aad");

    // 1. Entra looks the user up first: nothing found is an empty ListResponse, by any of its
    // filters.
    for (const filter of [
      `userName eq "${email}"`,
      `externalId eq "${externalId}"`,
      `emails[type eq "work"].value eq "${email}"`,
    ]) {
      const res = await scim("get", `/Users?filter=${encodeURIComponent(filter)}`, key);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/scim\+json/);
      expect(res.body).toEqual({
        schemas: [URN.listResponse],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });
    }

    // 2. POST with core and enterprise schemas; the role goes through the company's role map.
    const created = await scim("post", "/Users", key, entraUser(email, externalId));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.headers.location).toMatch(new RegExp(`/scim/v2/Users/${id}$`));
    expect(created.body).toMatchObject({
      userName: email,
      externalId,
      active: true,
      displayName: "Ingrid Nilsen",
      name: { givenName: "Ingrid", familyName: "Nilsen", formatted: "Ingrid Nilsen" },
      emails: [{ value: email, type: "work", primary: true }],
      roles: [{ value: "inspector", primary: true }],
      [ENTERPRISE]: { department: "Deck" },
      meta: { resourceType: "User", location: created.headers.location },
    });
    const stored = (await firestore().doc(`users/${id}`).get()).data();
    expect(stored).toMatchObject({
      companyId,
      email,
      status: "invited",
      role: "inspector",
      departmentId: "dep-deck",
      externalId,
      provisionedBy: "scim",
      givenName: "Ingrid",
    });
    expect(await seatsUsed(companyId)).toBe(2);

    // 3. It is found by each filter now.
    for (const filter of [
      `userName eq "${email.toUpperCase()}"`,
      `externalId eq "${externalId}"`,
      `emails[type eq "work"].value eq "${email}"`,
    ]) {
      const res = await scim("get", `/Users?filter=${encodeURIComponent(filter)}`, key);
      expect(res.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, Resources: [{ id }] });
    }

    // 4. PATCH with capitalised ops and path-like keys in a path-less value.
    const renamed = address();
    const patched = await scim("patch", `/Users/${id}`, key, {
      schemas: [URN.patchOp],
      Operations: [
        { op: "Replace", path: "userName", value: renamed },
        { op: "Replace", path: "displayName", value: "Ingrid N. Berg" },
        {
          op: "Add",
          value: {
            "name.givenName": "Ingrid N.",
            'emails[type eq "work"].value': renamed,
            [`${ENTERPRISE}:department`]: "Engine",
          },
        },
        { op: "Replace", value: { "name.familyName": "Berg" } },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      userName: renamed,
      displayName: "Ingrid N. Berg",
      name: { givenName: "Ingrid N.", familyName: "Berg" },
      [ENTERPRISE]: { department: "Engine" },
    });
    expect((await auth().getUser(id)).email).toBe(renamed);

    // 5. Deactivation with a string boolean: exactly PATCH /v1/users {active:false}.
    const rid = randomId("rq");
    const off = await scimApi
      .raw()
      .patch(`/scim/v2/Users/${id}`)
      .set("Authorization", `Bearer ${key}`)
      .set("X-Request-Id", rid)
      .set("Content-Type", "application/scim+json")
      .send(
        JSON.stringify({
          schemas: [URN.patchOp],
          Operations: [{ op: "Replace", path: "active", value: "False" }],
        }),
      );
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect(off.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    expect(off.headers["x-client-request-id"]).toBe(rid);
    expect(await seatsUsed(companyId)).toBe(1);
    expect((await auth().getUser(id)).disabled).toBe(true);
    expect((await firestore().doc(`users/${id}`).get()).data()).toMatchObject({
      status: "deactivated",
      deactivatedAt: expect.anything(),
    });
    expect(await auditEntriesFor(companyId, rid)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          class: "privileged",
          action: "user.deactivated",
          target: { type: "user", id },
        }),
        expect.objectContaining({
          class: "privileged",
          action: "api.request",
          path: `/scim/v2/Users/${id}`,
          status: 200,
        }),
      ]),
    );

    // 6. DELETE → 204, then GET → 404 as a SCIM error; the user document (the person's records)
    // stays.
    expect((await scim("delete", `/Users/${id}`, key)).status).toBe(204);
    const gone = await scim("get", `/Users/${id}`, key);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ schemas: [URN.error], status: "404", detail: expect.any(String) });
    expect((await firestore().doc(`users/${id}`).get()).get("removedAt")).toBeTruthy();
    expect(
      (
        await scim(
          "get",
          `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`,
          key,
        )
      ).body.totalResults,
    ).toBe(0);
  });

  it("Test connection and lookups of names that are no e-mail address: an empty list, never a 500", async () => {
    const { key } = await scimCompany();
    // Entra's Test connection looks up a random non-existent user; scim2-tester's userNames are
    // UUIDs; Okta's are `jdoe`.
    for (const filter of [
      `userName eq "${randomId("not-an-address")}"`,
      'userName eq "jdoe"',
      'userName eq "a@b@c"',
      `emails.value eq "${randomId("nobody")}"`,
      `emails[type eq "work"].value eq "x@"`,
    ]) {
      const res = await scim("get", `/Users?filter=${encodeURIComponent(filter)}`, key);
      expect([filter, res.status, res.body.totalResults]).toEqual([filter, 200, 0]);
    }
  });

  it("answers a read-only key, a missing key and an unsupported filter with SCIM errors", async () => {
    const { companyId, key } = await scimCompany();
    const read = (await seedKey({ api: "company", companyId, scopes: ["read"] })).key;
    const forbidden = await scim("get", "/Users", read);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({
      schemas: [URN.error],
      status: "403",
      detail: expect.stringContaining("provisioning"),
    });
    const anonymous = await scimApi.send("get", "/scim/v2/Users", undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ schemas: [URN.error], status: "401" });
    expect(anonymous.headers["x-request-id"]).toBeTruthy();
    const bad = await scim("get", `/Users?filter=${encodeURIComponent('userName co "x"')}`, key);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      status: "400",
      scimType: "invalidFilter",
      detail: expect.stringContaining('"co"'),
    });
    const malformed = await scim(
      "get",
      `/Users?filter=${encodeURIComponent('userName eq "x')}`,
      key,
    );
    expect(malformed.body).toMatchObject({ status: "400", scimType: "invalidFilter" });
  });

  it("parses application/scim+json bodies the runtime hands over raw, and answers a malformed one with invalidSyntax", async () => {
    const { key } = await scimCompany();
    const malformed = await scim("post", "/Users", key, '{"userName": "x@y.example",');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      schemas: [URN.error],
      status: "400",
      scimType: "invalidSyntax",
    });
    const asJson = await scimApi.send(
      "post",
      "/scim/v2/Users",
      key,
      { userName: address() },
      "application/json",
    );
    expect(asJson.status).toBe(201);
    const text = await scimApi.send("post", "/scim/v2/Users", key, "userName=x", "text/plain");
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ schemas: [URN.error], status: "415" });
  });

  it("refuses changes no request may make, and writes nothing for them", async () => {
    const { companyId, key } = await scimCompany();
    const { body: user } = await scim("post", "/Users", key, {
      userName: address(),
      displayName: "A",
    });
    const attempts: Array<[unknown, string]> = [
      [
        {
          schemas: [URN.patchOp],
          Operations: [
            { op: "replace", path: "active", value: false },
            { op: "replace", path: "id", value: "x" },
          ],
        },
        "mutability",
      ],
      [
        {
          schemas: [URN.patchOp],
          Operations: [
            { op: "replace", path: 'emails[type eq "home"].value', value: "h@x.example" },
          ],
        },
        "noTarget",
      ],
      [
        {
          schemas: [URN.patchOp],
          Operations: [
            { op: "replace", path: "emails", value: [{ value: "not-an-address", primary: true }] },
          ],
        },
        "invalidValue",
      ],
    ];
    for (const [body, scimType] of attempts) {
      const res = await scim("patch", `/Users/${user.id}`, key, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ scimType });
    }
    expect((await scim("get", `/Users/${user.id}`, key)).body).toMatchObject({
      active: true,
      displayName: "A",
    });
    expect(await seatsUsed(companyId)).toBe(1);
  });

  it("never grants elevated roles, even when mapped, and refuses deactivating the company's only owner", async () => {
    const { companyId, key } = await scimCompany();
    const res = await scim("post", "/Users", key, {
      userName: address(),
      roles: [{ value: "Owner", primary: true }],
    });
    expect(res.body.roles).toEqual([{ value: "standard", primary: true }]);
    const owner = randomId("u");
    await firestore().doc(`users/${owner}`).set({
      companyId,
      email: address(),
      displayName: "Owner",
      role: "owner",
      status: "active",
      departmentId: null,
      createdAt: new Date(),
    });
    const unchanged = await scim("patch", `/Users/${owner}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", value: { active: true } }],
    });
    expect(unchanged.status).toBe(200);
    const refused = await scim("patch", `/Users/${owner}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ schemas: [URN.error], status: "403" });
  });
});
