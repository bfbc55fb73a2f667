import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * Issue 26, "What the independent checkers still find": the discovery and `.search` checks of
 * python-scim's scim2-tester (checkers/schemas.py, resource_query_attributes.py), replayed.
 */
const SEARCH = "urn:ietf:params:scim:api:messages:2.0:SearchRequest";
type Attr = { name: string; description: string; subAttributes?: Attr[]; returned: string };

describe("/Schemas says what the server does", () => {
  it("userName unique in the company case-insensitively, emails as sent, departments kept, groups typed", async () => {
    const { key } = await scimCompany();
    const user = await scim("get", `/Schemas/${URN.user}`, key);
    expect(user.status).toBe(200);
    const byName = (n: string) => (user.body.attributes as Attr[]).find((a) => a.name === n)!;
    expect(byName("userName")).toMatchObject({ required: true, uniqueness: "server" });
    expect(byName("userName").description).toMatch(/unique within the company/i);
    expect(byName("userName").description).not.toMatch(/lower-cased|whole service/);
    expect(byName("emails").description).toMatch(/returned as sent/);
    expect(byName("emails").description).not.toMatch(/do not change the sign-in/);
    expect(byName("groups")).toMatchObject({ mutability: "readOnly", returned: "never" });
    expect(byName("groups").subAttributes!.map((a) => a.name)).toEqual([
      "value",
      "$ref",
      "display",
      "type",
    ]);
    const enterprise = await scim("get", `/Schemas/${URN.enterprise}`, key);
    expect(enterprise.body.attributes[0].description).not.toMatch(/refused/);
    expect(enterprise.body.attributes[0].description).toMatch(/accepted/);
  });
});

describe("/Schemas as scim2-models builds its models from it", () => {
  it("every reference attribute names its referenceTypes (RFC 7643 §7; without them the checker stops at discovery)", async () => {
    const { key } = await scimCompany();
    const schemas = await scim("get", "/Schemas", key);
    const references: Array<[string, unknown]> = [];
    const walk = (attrs: Array<Attr & { type: string; referenceTypes?: string[] }>, at: string) => {
      for (const a of attrs) {
        if (a.type === "reference") references.push([`${at}${a.name}`, a.referenceTypes]);
        walk((a.subAttributes ?? []) as typeof attrs, `${at}${a.name}.`);
      }
    };
    for (const schema of schemas.body.Resources) walk(schema.attributes, `${schema.name}:`);
    expect(references).toEqual([
      ["User:profileUrl", ["external"]],
      ["User:groups.$ref", ["User", "Group"]],
      ["EnterpriseUser:manager.$ref", ["User"]],
      ["Group:members.$ref", ["User"]],
    ]);
  });
});

describe("scim2-tester's PATCH checks on the enterprise extension", () => {
  it("the extension's URN as the path adds, replaces and removes its attributes; an unknown department reads back as sent", async () => {
    const { key } = await scimCompany();
    const { body } = await scim("post", "/Users", key, { userName: randomId("ext") });
    const path = URN.enterprise;
    const value = {
      department: "Galley",
      employeeNumber: "E-1",
      costCenter: "CC",
      organization: "Org",
      division: "Div",
      manager: { value: "boss-id", displayName: "The Boss" },
    };
    const added = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "add", path, value }),
    );
    expect(added.status).toBe(200);
    // "Galley" is no department of the company: kept beside the user, and read back as sent.
    expect(added.body[URN.enterprise]).toEqual(value);
    expect((await scim("get", `/Users/${body.id}`, key)).body[URN.enterprise]).toEqual(value);
    const replaced = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", path, value: { department: "Deck", division: "North" } }),
    );
    expect(replaced.body[URN.enterprise]).toMatchObject({ department: "Deck", division: "North" });
    const removed = await scim("patch", `/Users/${body.id}`, key, patchOp({ op: "remove", path }));
    expect(removed.status).toBe(200);
    expect(removed.body[URN.enterprise]).toBeUndefined();
    const notAnObject = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "add", path, value: "Deck" }),
    );
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body).toMatchObject({ scimType: "invalidValue" });
  });
});

describe("what check_remove_attribute reports, a decision (docs/scim-connector.md, `name`)", () => {
  it("a removed name reads back as the display name, formatted only; a sent one replaces it", async () => {
    const { key } = await scimCompany();
    const { body } = await scim("post", "/Users", key, {
      userName: `${randomId("nm")}@example.com`,
      name: { givenName: "Kari", familyName: "Nordmann" },
    });
    const removed = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "remove", path: "name" }),
    );
    expect(removed.status).toBe(200);
    // Never split: which words are the family name cannot be told.
    expect(removed.body.name).toEqual({ formatted: "Kari Nordmann" });
    const renamed = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({ op: "replace", path: "displayName", value: "Kari Berg Nordmann" }),
    );
    expect(renamed.body.name).toEqual({ formatted: "Kari Berg Nordmann" });
    const sent = await scim(
      "patch",
      `/Users/${body.id}`,
      key,
      patchOp({
        op: "add",
        path: "name",
        value: { givenName: "Kari", familyName: "Berg Nordmann" },
      }),
    );
    expect(sent.body.name).toMatchObject({ givenName: "Kari", familyName: "Berg Nordmann" });
  });
});

describe("POST /Users/.search (RFC 7644 §3.4.3)", () => {
  async function twoUsers() {
    const { key } = await scimCompany();
    const domain = `${randomId("d")}.example`;
    const ids: string[] = [];
    for (const name of ["ada", "bo"]) {
      const created = await scim("post", "/Users", key, {
        schemas: [URN.user],
        userName: `${name}@${domain}`,
        name: { givenName: name, familyName: "Checker" },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    return { key, domain, ids };
  }

  it("answers as the GET listing: filter, attributes, paging", async () => {
    const { key, domain, ids } = await twoUsers();
    const filter = `userName eq "ADA@${domain}"`;
    const found = await scim("post", "/Users/.search", key, {
      schemas: [SEARCH],
      filter,
      attributes: ["userName"],
    });
    expect(found.status).toBe(200);
    expect(found.headers["content-type"]).toMatch(/application\/scim\+json/);
    expect(found.body).toEqual({
      schemas: [URN.listResponse],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [{ schemas: [URN.user, URN.enterprise], id: ids[0], userName: `ada@${domain}` }],
    });
    const viaGet = await scim(
      "get",
      `/Users?filter=${encodeURIComponent(filter)}&attributes=userName`,
      key,
    );
    expect(viaGet.body).toEqual(found.body);

    const page = await scim("post", "/Users/.search", key, {
      schemas: [SEARCH],
      startIndex: 2,
      count: 1,
      excludedAttributes: "name,emails",
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0]).toMatchObject({ id: ids[1], userName: `bo@${domain}` });
    expect(page.body.Resources[0]).not.toHaveProperty("name");
    expect(page.body.Resources[0]).not.toHaveProperty("emails");

    const none = await scim("post", "/Users/.search", key, {
      filter: `userName eq "nobody@${domain}"`,
    });
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it("the server-root /.search (scim2-tester's search_with_attributes) answers as /Users/.search", async () => {
    const { key, domain, ids } = await twoUsers();
    const root = await scim("post", "/.search", key, {
      schemas: [SEARCH],
      attributes: ["userName"],
    });
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ schemas: [URN.listResponse], totalResults: 2 });
    expect(root.body.Resources).toEqual([
      { schemas: [URN.user, URN.enterprise], id: ids[0], userName: `ada@${domain}` },
      { schemas: [URN.user, URN.enterprise], id: ids[1], userName: `bo@${domain}` },
    ]);
    const excluded = await scim("post", "/.search", key, {
      filter: `userName eq "bo@${domain}"`,
      excludedAttributes: ["name"],
    });
    expect(excluded.body.Resources).toEqual([
      expect.not.objectContaining({ name: expect.anything() }),
    ]);
    expect(excluded.body.Resources[0]).toMatchObject({ id: ids[1] });
    expect((await scim("post", "/.search", key, { sortOrder: "ascending" })).status).toBe(400);
  });

  it("the root /.search covers every resource type: users, then groups; a filter of either", async () => {
    const { key, domain, ids } = await twoUsers();
    const group = await scim("post", "/Groups", key, {
      displayName: "Crew",
      members: [{ value: ids[0] }],
    });
    const all = await scim("post", "/.search", key, { attributes: "id", count: 2, startIndex: 2 });
    expect(all.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 2 });
    expect(all.body.Resources.map((r: { id: string }) => r.id)).toEqual([ids[1], group.body.id]);
    const groups = await scim("post", "/.search", key, { filter: 'displayName eq "crew"' });
    expect(groups.body.Resources).toEqual([
      expect.objectContaining({
        id: group.body.id,
        schemas: [URN.group],
        members: [expect.objectContaining({ value: ids[0] })],
      }),
    ]);
    const users = await scim("post", "/.search", key, { filter: `userName eq "bo@${domain}"` });
    expect(users.body.Resources.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    const neither = await scim("post", "/.search", key, { filter: 'title eq "Master"' });
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ scimType: "invalidFilter" });
  });

  it("refuses sorting, a bad filter and a malformed body with SCIM 400s", async () => {
    const { key } = await twoUsers();
    const sorted = await scim("post", "/Users/.search", key, { sortBy: "userName" });
    expect(sorted.status).toBe(400);
    expect(sorted.body).toMatchObject({ schemas: [URN.error], scimType: "invalidValue" });
    const bad = await scim("post", "/Users/.search", key, { filter: 'userName eq "x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ schemas: [URN.error], scimType: "invalidFilter" });
    const wrongType = await scim("post", "/Users/.search", key, { count: "ten" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.schemas).toEqual([URN.error]);
  });
});
