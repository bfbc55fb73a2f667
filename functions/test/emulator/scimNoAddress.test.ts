import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seatsUsed } from "../support/builders";
import { patchOp, scim, scimApi, scimCompany } from "../support/scim";

/**
 * Issue 26: a user with a userName and no e-mail address (RFC 7643 requires only `userName`), as
 * python-scim's scim2-tester creates them and as a provider sends a person whose mailbox comes
 * later. Stored and answered, a seat taken, no sign-in account until the first address arrives.
 */
const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data() ?? {};
const account = (uid: string) =>
  auth()
    .getUser(uid)
    .catch(() => null);
const byFilter = async (key: string, filter: string) =>
  (await scim("get", `/Users?filter=${encodeURIComponent(filter)}`, key)).body as {
    totalResults: number;
    Resources: Array<{ id: string }>;
  };
const audited = async (companyId: string, id: string) =>
  (await firestore().collection(`companies/${companyId}/auditLogs`).get()).docs
    .map((d) => d.data())
    .filter((e) => (e.target as { id?: string } | undefined)?.id === id)
    .map((e) => e.action as string)
    .sort();

describe("SCIM users without an e-mail address", () => {
  it("scim2-tester's sequence: POST, GET, filter, PUT, PATCH, DELETE, all without a sign-in account", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 5, seatsUsed: 1 });
    const userName = randomId("bjensen");
    const created = await scim("post", "/Users", key, { schemas: [URN.user], userName });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      userName,
      displayName: userName,
      emails: [],
      active: true,
    });
    expect(await stored(id)).toMatchObject({ email: null, status: "invited", userName });
    expect(await account(id)).toBeNull();
    expect(await seatsUsed(companyId)).toBe(2);

    expect((await scim("get", `/Users/${id}`, key)).body).toMatchObject({ id, userName });
    expect((await byFilter(key, `userName eq "${userName.toUpperCase()}"`)).Resources).toEqual([
      expect.objectContaining({ id }),
    ]);
    const search = await scim("post", "/Users/.search", key, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],
      filter: `userName eq "${userName}"`,
    });
    expect(search.body.Resources).toEqual([expect.objectContaining({ id })]);
    const put = await scim("put", `/Users/${id}`, key, {
      schemas: [URN.user],
      id,
      userName,
      displayName: "Barbara Jensen",
      title: "Tour guide",
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ displayName: "Barbara Jensen", title: "Tour guide" });
    const patched = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp({ op: "replace", path: "displayName", value: "Babs Jensen" }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.displayName).toBe("Babs Jensen");
    expect(await account(id)).toBeNull();

    expect((await scim("delete", `/Users/${id}`, key)).status).toBe(204);
    expect((await scim("get", `/Users/${id}`, key)).status).toBe(404);
    expect(await seatsUsed(companyId)).toBe(1);
    expect(await audited(companyId, id)).toEqual([
      "user.invited",
      "user.removed",
      "user.updated",
      "user.updated",
    ]);
  });

  it("the first address (Okta's emails add, Entra's mail mapping) creates the sign-in account once; emails eq never matched before", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 5, seatsUsed: 0 });
    const { body } = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName: randomId("crew"),
    });
    const id = body.id as string;
    const email = `${randomId("Crew")}@Example.com`;
    expect((await byFilter(key, `emails.value eq "${email}"`)).totalResults).toBe(0);
    const addOp = patchOp({
      op: "add",
      path: "emails",
      value: [{ value: email, type: "work", primary: true }],
    });
    const added = await scim("patch", `/Users/${id}`, key, addOp);
    expect(added.status).toBe(200);
    expect(added.body.emails).toEqual([{ value: email, type: "work", primary: true }]);
    const created = await account(id);
    expect(created).toMatchObject({ email: email.toLowerCase(), disabled: false });
    expect(await stored(id)).toMatchObject({ email: email.toLowerCase(), status: "invited" });
    expect(await seatsUsed(companyId)).toBe(1); // taken at the POST, not again
    expect((await byFilter(key, `emails[type eq "work"].value eq "${email}"`)).Resources).toEqual([
      expect.objectContaining({ id }),
    ]);
    // The provider's retry of the same PATCH changes nothing.
    expect((await scim("patch", `/Users/${id}`, key, addOp)).status).toBe(200);
    expect(await audited(companyId, id)).toEqual(["user.invited", "user.updated"]);
    expect((await account(id))?.metadata.creationTime).toBe(created?.metadata.creationTime);
  });

  it("a userName that becomes an address is the address, as for a POST (no emails ever sent)", async () => {
    const { key } = await scimCompany();
    const { body } = await scim("post", "/Users", key, { userName: randomId("jdoe") });
    const email = `${randomId("jdoe")}@example.com`;
    const renamed = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", path: "userName", value: email }),
    );
    expect(renamed.status).toBe(200);
    expect((await account(body.id))?.email).toBe(email);
  });

  it("a first address taken by another user or outside the domains is refused, and no account is left", async () => {
    const { key } = await scimCompany(
      { seatCapacity: 10, seatsUsed: 0 },
      { provisioningDomains: ["contoso.example"] },
    );
    const taken = `${randomId("t")}@contoso.example`;
    expect((await scim("post", "/Users", key, { userName: taken })).status).toBe(201);
    const { body } = await scim("post", "/Users", key, { userName: randomId("nomail") });
    const send = (value: string) =>
      scim(
        "patch",
        `/Users/${body.id}`,
        key,
        patchOp({ op: "add", path: "emails", value: [{ value, primary: true }] }),
      );
    const clash = await send(taken.toUpperCase());
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ scimType: "uniqueness" });
    const elsewhere = await send(`${randomId("x")}@gmail.com`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.detail).toMatch(/contoso\.example/);
    expect(await account(body.id)).toBeNull();
    expect(await stored(body.id)).toMatchObject({ email: null });
    expect(await firestore().collection("accountIntents").doc(body.id).get()).toMatchObject({
      exists: false,
    });
  });

  it("deactivated, reactivated and listed by /v1/users with email null", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 3, seatsUsed: 0 });
    const { body } = await scim("post", "/Users", key, { userName: randomId("temp") });
    const active = (value: boolean) =>
      scim("patch", `/Users/${body.id}`, key, patchOp({ op: "replace", path: "active", value }));
    expect((await active(false)).body.active).toBe(false);
    expect(await seatsUsed(companyId)).toBe(0);
    expect((await active(true)).body.active).toBe(true);
    expect(await seatsUsed(companyId)).toBe(1);
    expect(await account(body.id)).toBeNull();
    const listed = await scimApi.send("get", `/v1/users/${body.id}`, key);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ id: body.id, email: null, status: "invited" });
  });
});
