import { URN } from "../../src/scim/routeKit";
import { randomId, seedUser } from "../support/builders";
import { scim, scimApi, scimCompany } from "../support/scim";

/**
 * Issue 35: what schemathesis found where the served document and the server disagreed, and
 * the `name` Okta's SCIM spec test requires of every user it imports, through HTTP.
 */
describe("a request the document refuses is refused", () => {
  it("SCIM POST and PUT with an object where the schema says array: 400 invalidValue, nothing stored", async () => {
    const { key } = await scimCompany();
    const userName = `${randomId("arr")}@example.com`;
    const refused = await scim("post", "/Users", key, { userName, emails: {} });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      schemas: [URN.error],
      status: "400",
      scimType: "invalidValue",
    });
    expect(refused.body.detail).toMatch(/"emails" must be an array/);
    const phones = await scim("post", "/Users", key, {
      userName,
      phoneNumbers: { value: "+47 1234" },
    });
    expect(phones.status).toBe(400);
    // Nothing was stored: the userName is still free.
    const created = await scim("post", "/Users", key, {
      userName,
      emails: [{ value: userName, primary: true }],
    });
    expect(created.status).toBe(201);
    expect(created.body.emails[0]).toMatchObject({ value: userName, primary: true });
    const put = await scim("put", `/Users/${created.body.id}`, key, { userName, emails: {} });
    expect(put.status).toBe(400);
    expect(put.body.scimType).toBe("invalidValue");
    // A PATCH naming the attribute as its path may still send one value, as RFC 7644 allows.
    const patched = await scim("patch", `/Users/${created.body.id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "add", path: "phoneNumbers", value: { value: "+47 1234" } }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.phoneNumbers).toEqual([{ value: "+47 1234" }]);
  });

  it("SCIM GET with a query parameter the document does not list, or .search with a null body: 400", async () => {
    const { key } = await scimCompany();
    const unknown = await scimApi
      .raw()
      .get("/scim/v2/Users?startIndex=0&x-unknown=42")
      .set("Authorization", `Bearer ${key}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ schemas: [URN.error], status: "400" });
    expect(unknown.body.detail).toMatch(/x-unknown/);
    const one = await scimApi
      .raw()
      .get("/scim/v2/Users/anyone?x-unknown=42")
      .set("Authorization", `Bearer ${key}`);
    expect(one.status).toBe(400);
    // As a SearchRequest naming sortBy is (sort.supported is false).
    const sorted = await scimApi
      .raw()
      .get("/scim/v2/Users?sortBy=userName")
      .set("Authorization", `Bearer ${key}`);
    expect(sorted.status).toBe(400);
    const search = await scimApi
      .raw()
      .post("/scim/v2/Users/.search")
      .set("Authorization", `Bearer ${key}`)
      .set("Content-Type", "application/scim+json")
      .send("null");
    expect(search.status).toBe(400);
    expect(search.body).toMatchObject({ schemas: [URN.error], status: "400" });
  });

  it("a method /Users/.search does not have answers 405 with Allow, not the 404 of /Users/{id}", async () => {
    const { key } = await scimCompany();
    for (const method of ["put", "patch", "delete", "get"] as const) {
      const res = await scimApi
        .raw()
        [method]("/scim/v2/Users/.search")
        .set("Authorization", `Bearer ${key}`)
        .set("Content-Type", "application/scim+json")
        .send(method === "get" || method === "delete" ? undefined : "{}");
      expect([method, res.status, res.headers.allow]).toEqual([method, 405, "POST"]);
      expect(res.body).toMatchObject({ schemas: [URN.error], status: "405" });
    }
  });
});

describe("a user's name as SCIM and /v1/users serve it", () => {
  it("an app user's display name as formatted, never split into guessed parts; /v1/users too", async () => {
    const { companyId, key } = await scimCompany();
    const cases: Array<[string, Record<string, string>]> = [
      ["Kari Nordmann", { formatted: "Kari Nordmann" }],
      ["  Ola   Dahl ", { formatted: "Ola Dahl" }],
      ["山田 太郎", { formatted: "山田 太郎" }],
      ["Jan van der Berg", { formatted: "Jan van der Berg" }],
      ["Kari", { formatted: "Kari" }],
    ];
    for (const [displayName, name] of cases) {
      const uid = randomId("app");
      await seedUser(uid, { companyId, displayName, email: `${uid}@example.com` });
      const res = await scim("get", `/Users/${uid}`, key);
      expect([displayName, res.status, res.body.name]).toEqual([displayName, 200, name]);
      const v1 = await scimApi.get(`/v1/users/${uid}`, key);
      expect([displayName, v1.body.data.given_name, v1.body.data.family_name]).toEqual([
        displayName,
        name.givenName ?? null,
        name.familyName ?? null,
      ]);
    }
    const uid = randomId("mail");
    await seedUser(uid, { companyId, displayName: `${uid}@example.com` });
    expect((await scim("get", `/Users/${uid}`, key)).body.name).toBeUndefined();
  });

  it("a provisioned user's as sent, even when the display name would split otherwise", async () => {
    const { key } = await scimCompany();
    const userName = `${randomId("sent")}@example.com`;
    const created = await scim("post", "/Users", key, {
      userName,
      displayName: "Anna Berg",
      name: { givenName: "Anna Maria", familyName: "Berg Lund" },
    });
    expect(created.status).toBe(201);
    const read = await scim("get", `/Users/${created.body.id}`, key);
    expect(read.body.name).toEqual({ givenName: "Anna Maria", familyName: "Berg Lund" });
    const v1 = await scimApi.get(`/v1/users/${created.body.id}`, key);
    expect(v1.body.data).toMatchObject({ given_name: "Anna Maria", family_name: "Berg Lund" });
  });

  it("given_name and family_name set by POST and PATCH /v1/users are served as SCIM name parts until a provider sends its own", async () => {
    const { key } = await scimCompany();
    const created = await scimApi.send("post", "/v1/users", key, {
      email: `${randomId("y")}@example.com`,
      display_name: "山田 太郎",
      given_name: " 太郎 ",
      family_name: "山田",
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ given_name: "太郎", family_name: "山田" });
    const id = created.body.data.id as string;
    expect((await scim("get", `/Users/${id}`, key)).body.name).toEqual({
      givenName: "太郎",
      familyName: "山田",
    });
    const patched = await scimApi.send("patch", `/v1/users/${id}`, key, { family_name: "Yamada" });
    expect(patched.body.data).toMatchObject({ given_name: "太郎", family_name: "Yamada" });
    const cleared = await scimApi.send("patch", `/v1/users/${id}`, key, { given_name: null });
    expect(cleared.body.data).toMatchObject({ given_name: null, family_name: "Yamada" });
    await scim("patch", `/Users/${id}`, key, {
      schemas: [URN.patchOp],
      Operations: [{ op: "replace", path: "name", value: { givenName: "Taro", familyName: "Y" } }],
    });
    expect((await scimApi.get(`/v1/users/${id}`, key)).body.data).toMatchObject({
      given_name: "Taro",
      family_name: "Y",
    });
  });

  it.each([
    ["display_name", "A\u0000B"],
    ["display_name", "\u202e\u200b"],
    ["given_name", "Ka\u200bri"],
    ["family_name", "Nord\ufeffmann"],
    ["given_name", "   "],
    ["family_name", 7],
  ])("%s %j → 400 naming it, nothing created", async (field, value) => {
    const { key } = await scimCompany();
    const email = `${randomId("c")}@example.com`;
    const res = await scimApi.send("post", "/v1/users", key, {
      email,
      display_name: "Kari",
      [field]: value,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`"${field}"`);
    const listed = await scimApi.get(`/v1/users?email=${encodeURIComponent(email)}`, key);
    expect(listed.body.data).toEqual([]);
  });

  it.each(["می\u200cخواهم", "Ana \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}"])(
    "a name with the joiners Persian and Indic names need, or a flag's tags, is accepted: %j",
    async (name) => {
      const { key } = await scimCompany();
      const res = await scimApi.send("post", "/v1/users", key, {
        email: `${randomId("j")}@example.com`,
        display_name: name,
      });
      expect([res.status, res.body.data.display_name]).toEqual([201, name]);
    },
  );
});
