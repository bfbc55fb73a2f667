import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 15, breaks 5 and 7 and the PATCH caps: what Okta orgs and an RFC 7643/7644 compliance
 * checker send.
 */
const ENTERPRISE = URN.enterprise;
const domain = () => `${randomId("d")}.example`;

describe("5. userNames that are not e-mail addresses", () => {
  it("Okta jdoe-style: the sign-in address comes from emails; userName unique in the company, case-insensitively", async () => {
    const { companyId, key } = await scimCompany();
    const email = `jdoe@${domain()}`;
    const created = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName: "JDoe",
      name: { givenName: "J", familyName: "Doe" },
      emails: [
        { value: "home@else.example", type: "home" },
        { value: email, type: "work" },
      ],
      active: true,
    });
    expect(created.status).toBe(201);
    // Returned as sent (the sign-in address is the work one).
    expect(created.body).toMatchObject({
      userName: "JDoe",
      emails: [
        { value: "home@else.example", type: "home" },
        { value: email, type: "work" },
      ],
    });
    expect((await auth().getUser(created.body.id)).email).toBe(email);
    expect((await firestore().doc(`users/${created.body.id}`).get()).data()).toMatchObject({
      email,
      userName: "JDoe",
      userNameKey: "jdoe",
    });
    expect(
      (await scim("get", `/Users?filter=${encodeURIComponent('userName eq "jdoe"')}`, key)).body,
    ).toMatchObject({ totalResults: 1, Resources: [{ id: created.body.id }] });
    const twin = await scim("post", "/Users", key, {
      userName: "jdoe",
      emails: [{ value: `other@${domain()}`, primary: true }],
    });
    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({
      scimType: "uniqueness",
      detail: expect.stringContaining("userName"),
    });
    // Another company may have its own jdoe.
    const other = await scimCompany();
    expect(
      (
        await scim("post", "/Users", other.key, {
          userName: "jdoe",
          emails: [{ value: `jdoe@${domain()}`, primary: true }],
        })
      ).status,
    ).toBe(201);
    // No address at all is a user without a sign-in account (scimNoAddress.test.ts); no userName
    // either is 400.
    const none = await scim("post", "/Users", key, { displayName: "Nobody" });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      scimType: "invalidValue",
      detail: expect.stringContaining('"userName" is required'),
    });
    expect(companyId).toBeTruthy();
  });

  it("the checker's user: a non-e-mail userName renamed by PATCH keeps the sign-in address; a new work e-mail moves it", async () => {
    const { key } = await scimCompany();
    const [first, second] = [`a@${domain()}`, `b@${domain()}`];
    const { body } = await scim("post", "/Users", key, {
      userName: "checker-user-1",
      emails: [{ value: first, primary: true }],
    });
    const renamed = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", path: "userName", value: "checker-user-2" }),
    );
    expect(renamed.body).toMatchObject({ userName: "checker-user-2", emails: [{ value: first }] });
    const moved = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", path: 'emails[type eq "work"].value', value: second }),
    );
    expect(moved.status).toBe(200);
    expect((await auth().getUser(body.id)).email).toBe(second);
  });
});

describe("7. RFC details", () => {
  it("attributes and excludedAttributes on GET, for one user and a list", async () => {
    const { key } = await scimCompany();
    const email = `n@${domain()}`;
    const { body } = await scim("post", "/Users", key, {
      userName: email,
      name: { givenName: "Nina", familyName: "Holm" },
      [ENTERPRISE]: { department: "Deck" },
    });
    const some = await scim(
      "get",
      `/Users/${body.id}?attributes=${encodeURIComponent(`userName,name.givenName,${ENTERPRISE}:department`)}`,
      key,
    );
    expect(some.body).toEqual({
      schemas: [URN.user, URN.enterprise],
      id: body.id,
      userName: email,
      name: { givenName: "Nina" },
      [ENTERPRISE]: { department: "Deck" },
    });
    const fewer = await scim(
      "get",
      `/Users/${body.id}?excludedAttributes=${encodeURIComponent("emails,name.familyName,meta,id")}`,
      key,
    );
    expect(fewer.body).toMatchObject({ id: body.id, name: { givenName: "Nina" } });
    expect(fewer.body.emails).toBeUndefined();
    expect(fewer.body.meta).toBeUndefined();
    expect(fewer.body.name.familyName).toBeUndefined();
    const list = await scim(
      "get",
      `/Users?attributes=userName&filter=${encodeURIComponent(`userName eq "${email}"`)}`,
      key,
    );
    expect(list.body.Resources).toEqual([
      { schemas: [URN.user, URN.enterprise], id: body.id, userName: email },
    ]);
  });

  it("values written by PATCH and PUT read back as written", async () => {
    const { key } = await scimCompany();
    const email = `Mixed.Case@${domain()}`;
    const { body } = await scim("post", "/Users", key, { userName: email, externalId: "Ext-1" });
    expect(body.userName).toBe(email);
    const written = {
      userName: "Mixed.Case.2",
      externalId: "Ext-2",
      displayName: "Ms Case",
      name: { givenName: "Mix", familyName: "Case", formatted: "Mix Case" },
      emails: [{ value: email.toLowerCase(), type: "work", primary: true }],
    };
    const put = await scim("put", `/Users/${body.id}`, key, {
      schemas: [URN.user],
      ...written,
      active: true,
    });
    expect(put.body).toMatchObject(written);
    expect((await scim("get", `/Users/${body.id}`, key)).body).toMatchObject(written);
    const patched = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp(
        { op: "replace", path: "name.formatted", value: "M. Case" },
        { op: "add", path: "displayName", value: "M" },
      ),
    );
    expect((await scim("get", `/Users/${body.id}`, key)).body).toMatchObject({
      name: { formatted: "M. Case" },
      displayName: "M",
    });
    expect(patched.status).toBe(200);
  });

  it("bounded work: too many operations or values is a clear 400; 40,000 values are refused at once", async () => {
    const { key } = await scimCompany();
    const { body } = await scim("post", "/Users", key, { userName: `w@${domain()}` });
    const many = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp(
        ...Array.from({ length: 101 }, () => ({ op: "replace", path: "displayName", value: "x" })),
      ),
    );
    expect(many.body).toMatchObject({
      status: "400",
      scimType: "invalidValue",
      detail: expect.stringContaining("at most 100 operations"),
    });
    const values = Array.from({ length: 40_000 }, (_, i) => ({ value: `r${i}` }));
    const over = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "add", path: "roles", value: values.slice(0, 101) }),
    );
    expect(over.body).toMatchObject({
      status: "400",
      scimType: "invalidValue",
      detail: expect.stringContaining("at most 100 values"),
    });
    // 40,000 values: refused at once (by the value cap, or by the kernel's body limit where it
    // applies first).
    const started = Date.now();
    const huge = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "add", path: "roles", value: values }),
    );
    expect([400, 413]).toContain(huge.status);
    expect(Date.now() - started).toBeLessThan(5000);
    // The user's own role plus 99 added: exactly the cap.
    const fine = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "add", path: "roles", value: values.slice(0, 99) }),
    );
    expect(fine.status).toBe(200);
  });
});
