import { createCompanyApp } from "../../src/company/app";
import { seedCompany, seedKey } from "../support/builders";
import { auditCount, client } from "../support/http";
import { asInFunctionsRuntime, scim, scimCompany } from "../support/scim";

/**
 * Text that is not text: a lone UTF-16 surrogate (JSON's `"\ud800"`), which Firestore cannot
 * store. Each is refused with a 400 where it enters, quickly, with nothing written.
 */
const company = client(asInFunctionsRuntime(createCompanyApp()));

async function provisioningKey() {
  const companyId = await seedCompany({ seatCapacity: 10, seatsUsed: 0 });
  const { key } = await seedKey({ api: "company", companyId, scopes: ["read", "provisioning"] });
  return { companyId, key };
}

const userNamed = async (key: string, userName: string) =>
  (await scim("get", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`, key)).body
    .totalResults as number;

describe("a lone surrogate in a /v1 body", () => {
  it("is a 400 invalid_request naming the field, audited, and creates no user", async () => {
    const { companyId, key } = await provisioningKey();
    const before = await auditCount(companyId);
    const started = Date.now();
    const res = await company.send("post", "/v1/users", key, {
      email: "lone1@demo.example",
      display_name: "ok\ud800",
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
    expect(res.body.error.message).toMatch(/"display_name".*not well-formed Unicode/);
    expect(await auditCount(companyId)).toBe(before + 1);
    const users = await company.get("/v1/users", key);
    expect(users.body.data).toEqual([]);
  });

  it("in a field name, or deep in a nested body, is the same 400", async () => {
    const { key } = await provisioningKey();
    const named = await company.send("post", "/v1/users", key, {
      email: "x@demo.example",
      "\udc00": 1,
    });
    expect([named.status, named.body.error.message]).toEqual([
      400,
      expect.stringContaining('"(a field name)"'),
    ]);
    const deep =
      '{"email":"x@demo.example","a":' +
      "[".repeat(20_000) +
      '"\\ud800"' +
      "]".repeat(20_000) +
      "}";
    const res = await company.send("post", "/v1/users", key, deep);
    expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
  });
});

describe("a lone surrogate under /scim/v2", () => {
  it("in a body is a 400 invalidValue and creates no user", async () => {
    const { key } = await scimCompany();
    const res = await scim("post", "/Users", key, {
      userName: "lone2@demo.example",
      displayName: "\ud800",
    });
    expect([res.status, res.body.scimType]).toEqual([400, "invalidValue"]);
    expect(res.body.detail).toMatch(/"displayName".*not well-formed Unicode/);
    expect(await userNamed(key, "lone2@demo.example")).toBe(0);
  });

  it("in a filter's string is a 400 invalidFilter, answered at once", async () => {
    const { key } = await scimCompany();
    const started = Date.now();
    const res = await scim(
      "get",
      `/Users?filter=${encodeURIComponent('userName eq "\\ud800"')}`,
      key,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect([res.status, res.body.scimType]).toEqual([400, "invalidFilter"]);
    expect(res.body.detail).toMatch(/not well-formed Unicode/);
  });

  it("a well-formed pair (an emoji) is text like any other", async () => {
    const { key } = await scimCompany();
    const res = await scim("post", "/Users", key, {
      userName: "pair@demo.example",
      displayName: "Ana \ud83d\ude00",
    });
    expect([res.status, res.body.displayName]).toEqual([201, "Ana 😀"]);
  });
});

describe("a body's bytes and charset", () => {
  // Sent as the bytes they are (supertest would serialize a Buffer as JSON).
  const post = (path: string, key: string, type: string, bytes: Buffer) =>
    company
      .raw()
      .post(path)
      .set("Authorization", `Bearer ${key}`)
      .set("Content-Type", type)
      .serialize((b: Buffer) => b as unknown as string) // its type says string; it writes bytes too
      .send(bytes);
  const latin1 = Buffer.from(
    '{"userName":"bjorn@demo.example","displayName":"Bj\xf8rn"}',
    "latin1",
  );

  const utf8Body = Buffer.from(latin1.toString("latin1"), "utf8");

  it("SCIM: a charset other than UTF-8 is a 415; invalid UTF-8 is invalidSyntax", async () => {
    const { key } = await scimCompany();
    const declared = await post(
      "/scim/v2/Users",
      key,
      "application/scim+json; charset=latin1",
      latin1,
    );
    expect([declared.status, declared.body.status]).toEqual([415, "415"]);
    expect(declared.body.detail).toMatch(/UTF-8/);
    const invalid = await post(
      "/scim/v2/Users",
      key,
      "application/scim+json; charset=utf-8",
      latin1,
    );
    expect([invalid.status, invalid.body.scimType]).toEqual([400, "invalidSyntax"]);
    expect(invalid.body.detail).toBe("The request body is not valid UTF-8.");
    expect(await userNamed(key, "bjorn@demo.example")).toBe(0);
    const text = await post("/scim/v2/Users", key, "text/plain", utf8Body);
    expect([text.status, text.body.detail]).toEqual([
      415,
      "Send the request body as JSON with `Content-Type: application/scim+json`.",
    ]);
    const ok = await post("/scim/v2/Users", key, "application/scim+json;charset=UTF-8", utf8Body);
    expect([ok.status, ok.body.displayName]).toEqual([201, "Bjørn"]);
  });

  it("/v1: invalid UTF-8 is a 400 invalid_request, UTF-16 a 415, even where the runtime parsed it", async () => {
    const { key } = await provisioningKey();
    const body = '{"email":"bjorn@demo.example","display_name":"Bj\xf8rn"}';
    const invalid = await post("/v1/users", key, "application/json", Buffer.from(body, "latin1"));
    expect([invalid.status, invalid.body.error.code]).toEqual([400, "invalid_request"]);
    expect(invalid.body.error.message).toBe("The request body is not valid UTF-8.");
    const utf16 = Buffer.from(body, "utf16le");
    const declared = await post("/v1/users", key, "application/json; charset=utf-16le", utf16);
    expect([declared.status, declared.body.error.code]).toEqual([415, "unsupported_media_type"]);
    expect((await company.get("/v1/users", key)).body.data).toEqual([]);
  });
});

describe("query values the document bounds to ASCII, so a URL carrying them always fits", () => {
  it("a page or delta token with other characters is refused as not ours, not as a pattern", async () => {
    const { key } = await provisioningKey();
    const token = encodeURIComponent("😀".repeat(10));
    const page = await company.get(`/v1/users?page_token=${token}`, key);
    expect(page.status).toBe(400);
    expect(page.body.error.message).toBe(
      'Invalid query parameter "page_token": not a token this API issued; copy next_page_token ' +
        "exactly.",
    );
    const delta = await company.get(`/v1/incidents/delta?delta_token=${token}`, key);
    expect([delta.status, delta.body.error.message]).toEqual([
      400,
      expect.stringContaining("not a token this API issued; copy delta_token exactly."),
    ]);
  });

  it("SCIM attributes beyond attribute paths, or over 300 characters, are invalidValue", async () => {
    const { key } = await scimCompany();
    const odd = await scim("get", `/Users?attributes=${encodeURIComponent("userName,é")}`, key);
    expect([odd.status, odd.body.scimType]).toEqual([400, "invalidValue"]);
    const long = await scim("get", `/Users?excludedAttributes=${"a,".repeat(151)}`, key);
    expect([long.status, long.body.scimType]).toEqual([400, "invalidValue"]);
    const urn = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department";
    const ok = await scim(
      "get",
      `/Users?attributes=${encodeURIComponent(`userName, ${urn}`)}`,
      key,
    );
    expect(ok.status).toBe(200);
  });
});
