import { createCompanyApp } from "../../src/company/app";
import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { client } from "../support/http";
import { asInFunctionsRuntime, scim, scimApi, scimCompany } from "../support/scim";

/**
 * A SCIM body that is JSON but not an object does not conform to the message's structure: 400
 * `invalidSyntax` (RFC 7644 §3.12), like a body that does not parse, for Users and Groups on
 * POST, PUT and PATCH; /v1 keeps its 400 `invalid_request`.
 */
const NOT_OBJECTS = ["[]", '"x"', "1", "null", "[{}]"];

async function resources(key: string) {
  const user = await scim("post", "/Users", key, { userName: `${randomId("u")}@demo.example` });
  const group = await scim("post", "/Groups", key, { schemas: [URN.group], displayName: "Deck" });
  expect([user.status, group.status]).toEqual([201, 201]);
  return [`/Users/${user.body.id as string}`, `/Groups/${group.body.id as string}`];
}

describe("a SCIM body that is JSON but not an object", () => {
  it.each(NOT_OBJECTS)(
    "%s is 400 invalidSyntax on every write of Users and Groups",
    async (body) => {
      const { key } = await scimCompany();
      const [user, group] = await resources(key);
      const writes: ["post" | "put" | "patch", string][] = [
        ["post", "/Users"],
        ["put", user],
        ["patch", user],
        ["post", "/Groups"],
        ["put", group],
        ["patch", group],
      ];
      for (const [method, path] of writes) {
        const res = await scim(method, path, key, body);
        expect([method, path, res.status, res.body.scimType]).toEqual([
          method,
          path,
          400,
          "invalidSyntax",
        ]);
        expect(res.body.detail).toMatch(/body/);
      }
      expect((await scim("get", "/Users", key)).body.totalResults).toBe(1);
      expect((await scim("get", "/Groups", key)).body.totalResults).toBe(1);
    },
  );

  it("sent as application/json, an array reaches the API; a scalar the runtime refuses itself", async () => {
    const { key } = await scimCompany();
    const array = await scimApi.send("post", "/scim/v2/Users", key, "[]", "application/json");
    expect([array.status, array.body.scimType]).toEqual([400, "invalidSyntax"]);
    // The runtime's JSON parser takes only objects and arrays: its own HTML 400, as documented.
    const scalar = await scimApi
      .raw()
      .post("/scim/v2/Users")
      .set("Authorization", `Bearer ${key}`)
      .set("Content-Type", "application/json")
      .send("1");
    expect([scalar.status, scalar.type]).toEqual([400, "text/html"]);
  });

  it("under /v1 stays a 400 invalid_request, and an object with a wrong member stays invalidValue", async () => {
    const { key } = await scimCompany();
    const v1 = client(asInFunctionsRuntime(createCompanyApp()));
    const res = await v1.send("post", "/v1/users", key, "[]");
    expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
    const member = await scim("post", "/Users", key, { userName: 7 });
    expect([member.status, member.body.scimType]).toEqual([400, "invalidValue"]);
  });
});
