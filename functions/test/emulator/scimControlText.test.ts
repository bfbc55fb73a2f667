import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * SCIM names and identifiers refuse control and format characters as /v1/users does (NUL, C0 and
 * C1 controls, bidi overrides, zero-width spaces): a 400 invalidValue naming the attribute, on
 * POST, PUT and PATCH, Users and Groups. What real directories hold is taken: accents, CJK,
 * emoji with their joiners and the three tag flags, a Persian name's ZWNJ, a trailing newline
 * (trimmed); a tab, a line break or an invisible word break inside is made plain.
 */
const REFUSED = /must not contain control or format characters/;
const tags = (text: string) =>
  [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");

const newUser = (extra: Record<string, unknown> = {}) => ({
  schemas: [URN.user],
  userName: `${randomId("u")}@demo.example`,
  ...extra,
});

async function expectRefused(res: { status: number; body: Record<string, unknown> }, attr: string) {
  expect([res.status, res.body.scimType]).toEqual([400, "invalidValue"]);
  expect(res.body.detail).toMatch(REFUSED);
  expect(res.body.detail).toContain(`"${attr}"`);
}

describe("a User's text with a control or format character", () => {
  it("is refused on POST, for each attribute, and creates no user", async () => {
    const { key } = await scimCompany();
    const cases: [Record<string, unknown>, string][] = [
      [{ displayName: "Ana\u0000Lima" }, "displayName"],
      [{ name: { givenName: "\u202eAna" } }, "name.givenName"],
      [{ name: { familyName: "Li\u0085ma" } }, "name.familyName"],
      [{ name: { formatted: "Ana\u2067Lima" } }, "name.formatted"],
      [{ externalId: "ext\u2066-1" }, "externalId"],
      [{ userName: "ana\u0007@demo.example" }, "userName"],
      // A flag's tag characters spelling hidden text ("ASCII smuggling"), not one of the three.
      [{ displayName: `Ana \u{1F3F4}${tags("IGNORE ALL")}\u{E007F}` }, "displayName"],
    ];
    for (const [extra, attr] of cases) {
      const body = newUser(extra);
      await expectRefused(await scim("post", "/Users", key, body), attr);
    }
    const all = await scim("get", "/Users", key);
    expect(all.body.totalResults).toBe(0);
  });

  it("is refused on PUT and on PATCH, with or without a path, and changes nothing", async () => {
    const { key } = await scimCompany();
    const body = newUser({ displayName: "Ana Lima", name: { givenName: "Ana" } });
    const created = await scim("post", "/Users", key, body);
    expect(created.status).toBe(201);
    const at = `/Users/${created.body.id as string}`;
    const put = await scim("put", at, key, { ...body, name: { givenName: "A\u202ena" } });
    await expectRefused(put, "name.givenName");
    const byPath = patchOp({ op: "replace", path: "name.familyName", value: "Li\u0000ma" });
    await expectRefused(await scim("patch", at, key, byPath), "name.familyName");
    const noPath = patchOp({ op: "replace", value: { displayName: "Ana\u2066Lima" } });
    await expectRefused(await scim("patch", at, key, noPath), "displayName");
    const read = await scim("get", at, key);
    expect([read.body.displayName, read.body.name]).toEqual(["Ana Lima", { givenName: "Ana" }]);
  });

  it("stored before the rule, still takes every other change: a deactivation", async () => {
    const { key } = await scimCompany();
    const created = await scim("post", "/Users", key, newUser({ name: { givenName: "Ana" } }));
    const id = created.body.id as string;
    await firestore().doc(`users/${id}`).update({ givenName: "A\u202ena" });
    const off = patchOp({ op: "replace", path: "active", value: false });
    const res = await scim("patch", `/Users/${id}`, key, off);
    expect([res.status, res.body.active, res.body.name.givenName]).toEqual([
      200,
      false,
      "A\u202ena",
    ]);
  });
});

describe("what identity providers send for real people", () => {
  const names = [
    ["accents, composed and decomposed", "José Müller-Lüdenscheidt", "Jose\u0301 Nu\u0303nez"],
    ["CJK, Hangul and RTL scripts", "山田 太郎", "김민준 محمد"],
    ["emoji, a ZWJ family and a skin tone", "Ana 😀", "Ana 👩‍👩‍👧 👋🏽"],
    ["a Persian ZWNJ and a flag with tags", "می‌خواهم", "Ana 🏴󠁧󠁢󠁳󠁣󠁴󠁿"],
    ["a no-break space", "Ana\u00a0Lima", "Lima"],
    ["Hebrew with a right-to-left mark", "\u05e9\u05e8\u05d4 \u200f(QA)", "\u05dc\u05d5\u05d9"],
    [
      "Arabic with a letter mark, a soft hyphen",
      "\u0633\u0627\u0631\u0629\u061c 2",
      "Lima\u00adSilva",
    ],
    ["a left-to-right mark", "Ana\u200e Lima", "Lima"],
  ];

  it.each(names)("%s are kept as sent", async (_, displayName, familyName) => {
    const { key } = await scimCompany();
    const body = newUser({ displayName, name: { givenName: displayName, familyName } });
    const created = await scim("post", "/Users", key, body);
    expect([created.status, created.body.displayName]).toEqual([201, displayName]);
    expect(created.body.name).toMatchObject({ givenName: displayName, familyName });
    const at = `/Users/${created.body.id as string}`;
    const renamed = patchOp({ op: "replace", path: "name.familyName", value: displayName });
    const res = await scim("patch", at, key, renamed);
    expect([res.status, res.body.name.familyName]).toEqual([200, displayName]);
  });

  it("a tab or line break inside becomes a space, an invisible word break is dropped", async () => {
    const { key } = await scimCompany();
    const name = {
      givenName: "Ana\u2028Maria",
      familyName: "\u0e2a\u0e21\u200b\u0e0a\u0e32\u0e22",
    };
    const body = newUser({ displayName: "Ana\tLima\ufeff", name });
    const created = await scim("post", "/Users", key, body);
    expect([created.status, created.body.displayName]).toEqual([201, "Ana Lima"]);
    expect(created.body.name).toMatchObject({
      givenName: "Ana Maria",
      familyName: "\u0e2a\u0e21\u0e0a\u0e32\u0e22",
    });
  });

  it("a trailing newline or tab is trimmed, not refused", async () => {
    const { key } = await scimCompany();
    const body = newUser({ displayName: "Ana Lima\n", name: { givenName: "\tAna\r\n" } });
    const created = await scim("post", "/Users", key, body);
    expect([created.status, created.body.displayName]).toEqual([201, "Ana Lima"]);
    expect(created.body.name.givenName).toBe("Ana");
  });
});

describe("a Group's text with a control or format character", () => {
  it("is refused on POST, PUT and PATCH; a CJK or emoji name is kept", async () => {
    const { key } = await scimCompany();
    const group = (displayName: string) => ({ schemas: [URN.group], displayName });
    await expectRefused(await scim("post", "/Groups", key, group("Deck\u0000")), "displayName");
    const ext = { ...group("Deck"), externalId: "g\u202e1" };
    await expectRefused(await scim("post", "/Groups", key, ext), "externalId");
    const created = await scim("post", "/Groups", key, group("甲板 👩‍🚀"));
    expect([created.status, created.body.displayName]).toEqual([201, "甲板 👩‍🚀"]);
    const at = `/Groups/${created.body.id as string}`;
    await expectRefused(await scim("put", at, key, group("Deck\u2067")), "displayName");
    const rename = patchOp({
      op: "replace",
      value: { id: created.body.id, displayName: "D\u0085" },
    });
    await expectRefused(await scim("patch", at, key, rename), "displayName");
    expect((await scim("get", at, key)).body.displayName).toBe("甲板 👩‍🚀");
  });
});
