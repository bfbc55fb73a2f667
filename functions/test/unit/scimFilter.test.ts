import { parseFilter, parsePath } from "../../src/scim/filter";
import { FilterSyntaxError } from "../../src/scim/filterTokens";
import { ScimError } from "../../src/scim/scimErrors";
import { userTerms } from "../../src/scim/userFilter";

/** The filter grammar of RFC 7644 §3.4.2.2, and what the Users endpoint makes of it. */
describe("parseFilter", () => {
  // Every example filter of RFC 7644 §3.4.2.2 parses.
  it.each([
    'userName eq "bjensen"',
    `name.familyName co "O'Malley"`,
    'userName sw "J"',
    'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
    "title pr",
    'meta.lastModified gt "2011-05-13T04:42:34Z"',
    'meta.lastModified ge "2011-05-13T04:42:34Z"',
    'meta.lastModified lt "2011-05-13T04:42:34Z"',
    'meta.lastModified le "2011-05-13T04:42:34Z"',
    'title pr and userType eq "Employee"',
    'title pr or userType eq "Intern"',
    'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
    'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
    'userType eq "Employee" and (emails.type eq "work")',
    'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
    'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
  ])("parses the RFC example %s", (filter) => {
    expect(() => parseFilter(filter)).not.toThrow();
  });

  it("builds the tree with and binding tighter than or, and keeps URIs, sub-attributes and value filters", () => {
    expect(parseFilter('title pr or userType eq "Intern" and active eq true')).toEqual({
      kind: "or",
      left: { kind: "present", path: { attr: "title" } },
      right: {
        kind: "and",
        left: { kind: "compare", path: { attr: "userType" }, op: "eq", value: "Intern" },
        right: { kind: "compare", path: { attr: "active" }, op: "eq", value: true },
      },
    });
    expect(
      parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.familyName EQ "x"'),
    ).toEqual({
      kind: "compare",
      path: { uri: "urn:ietf:params:scim:schemas:core:2.0:User", attr: "name", sub: "familyName" },
      op: "eq",
      value: "x",
    });
    expect(parseFilter('emails[type eq "work"].value eq "a@b.c"')).toEqual({
      kind: "compare",
      path: {
        attr: "emails",
        valueFilter: { kind: "compare", path: { attr: "type" }, op: "eq", value: "work" },
        sub: "value",
      },
      op: "eq",
      value: "a@b.c",
    });
  });

  it("reads values as JSON: escapes, numbers, true, false, null", () => {
    expect(parseFilter('displayName eq "a \\"quoted\\" \\u00e9"')).toMatchObject({
      value: 'a "quoted" é',
    });
    expect(parseFilter("age gt -1.5e2")).toMatchObject({ value: -150 });
    expect(parseFilter("manager eq null")).toMatchObject({ value: null });
  });

  const refused: Array<[string, RegExp]> = [
    ["", /empty/],
    ['userName eq "unterminated', /string/],
    ["userName eq bjensen", /Expected a value/],
    ['userName equals "x"', /Expected an operator/],
    ['userName eq "x" and', /Expected an attribute name/],
    ['(userName eq "x"', /Expected "\)"/],
    ['userName eq "x")', /Unexpected/],
    ['emails[type eq "work"', /Expected "\]"/],
    ['emails[roles[value eq "x"]]', /cannot nest/],
    ["userName eq 'x'", /Unexpected character/],
    ['not userName eq "x"', /Expected an operator/],
    [`${"(".repeat(30)}a pr${")".repeat(30)}`, /deeper/],
    [`userName eq "${"x".repeat(1000)}"`, /longer than/],
  ];
  it.each(
    refused.map(
      ([filter, message]) => [JSON.stringify(filter).slice(0, 50), filter, message] as const,
    ),
  )("refuses %s", (_title, filter, message) => {
    expect(() => parseFilter(filter)).toThrow(FilterSyntaxError);
    expect(() => parseFilter(filter)).toThrow(message);
  });
});

describe("parsePath", () => {
  it("parses PATCH paths of RFC 7644 §3.5.2 and Entra ID", () => {
    expect(parsePath('members[value eq "2819c223-7f76-453a-919d-413861904646"]')).toMatchObject({
      attr: "members",
      valueFilter: { kind: "compare" },
    });
    expect(parsePath('addresses[type eq "work"].streetAddress')).toMatchObject({
      attr: "addresses",
      sub: "streetAddress",
    });
    expect(
      parsePath("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department"),
    ).toEqual({
      uri: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
      attr: "department",
    });
    expect(parsePath("name.givenName")).toEqual({ attr: "name", sub: "givenName" });
  });

  it("refuses what is not one path", () => {
    expect(() => parsePath('userName eq "x"')).toThrow(FilterSyntaxError);
    expect(() => parsePath("name.givenName.x")).toThrow(FilterSyntaxError);
  });
});

describe("userTerms", () => {
  it("turns the filters Entra ID and Okta send into exact lookups", () => {
    expect(userTerms('userName eq "Nina.Holm@Example.com"')).toEqual([
      { key: "userName", value: "nina.holm@example.com" },
    ]);
    expect(userTerms('externalId eq "A-1"')).toEqual([{ key: "externalId", value: "A-1" }]);
    expect(userTerms('emails[type eq "work"].value eq "x@y.z"')).toEqual([
      { key: "email", value: "x@y.z" },
    ]);
    expect(userTerms('USERNAME Eq "x@y.z" AND id eq "u1"')).toEqual([
      { key: "userName", value: "x@y.z" },
      { key: "id", value: "u1" },
    ]);
    expect(userTerms('emails.value eq "x@y.z"')).toEqual([{ key: "email", value: "x@y.z" }]);
  });

  it.each([
    ['userName sw "x"', /Operator "sw"/],
    ['userName eq "x" or id eq "y"', /"or" is not supported/],
    ['displayName eq "x"', /Filtering on "displayName"/],
    ['emails[type eq "home"].value eq "x@y.z"', /Filtering on "emails\[…\].value"/],
    ["userName eq true", /JSON string/],
    ["userName pr", /"pr" is not supported/],
    ['userName eq "x', /not valid/],
  ])("answers %j with invalidFilter", (filter, message) => {
    let error: unknown;
    try {
      userTerms(filter);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScimError);
    expect(error).toMatchObject({ status: 400, scimType: "invalidFilter" });
    expect((error as Error).message).toMatch(message);
  });
});
