import { z } from "../../src/http/zod";
import { URN, type AttributeDef } from "../../src/scim/routeKit";
import {
  ENTERPRISE_ATTRIBUTES,
  KEPT_AS_SENT,
  NAME_PARTS_KEPT_AS_SENT,
  USER_ATTRIBUTES,
} from "../../src/scim/userSchema";
import { scimUserInput, scimUserSchema } from "../../src/scim/userWire";

/**
 * The SCIM User is described once, in userSchema.ts's table; the zod wire schemas are written
 * by hand (typed, documented) and checked here against it, so an attribute added to one place
 * only fails this test.
 */
type Shape = string | Shape[] | { [name: string]: Shape };

const unwrap = (s: z.ZodType): z.ZodType =>
  s instanceof z.ZodOptional ? unwrap(s.unwrap() as z.ZodType) : s;

/** What a wire schema holds: `string` or `boolean`, an object's members, `[item]` for an array. */
function wireShape(schema: z.ZodType): Shape {
  const s = unwrap(schema);
  if (s instanceof z.ZodArray) return [wireShape(s.element as z.ZodType)];
  if (s instanceof z.ZodObject)
    return Object.fromEntries(
      Object.entries(s.shape).map(([k, v]) => [k, wireShape(v as z.ZodType)]),
    );
  return s instanceof z.ZodBoolean ? "boolean" : "string";
}

/** The same for an attribute of the table (a reference is a string on the wire). */
function tableShape(def: AttributeDef): Shape {
  const one =
    def.type === "complex"
      ? served(def.subAttributes ?? [])
      : def.type === "boolean"
        ? "boolean"
        : "string";
  return def.multiValued ? [one] : one;
}
const served = (defs: AttributeDef[]): Record<string, Shape> =>
  Object.fromEntries(
    defs.filter((d) => d.returned !== "never").map((d) => [d.name, tableShape(d)]),
  );

describe("the SCIM User table", () => {
  it("is the served wire schema: the same attributes, sub-attributes and types", () => {
    const wire = wireShape(scimUserSchema) as Record<string, Shape>;
    const { schemas, meta, [URN.enterprise]: extension, ...core } = wire;
    expect([schemas, meta]).toEqual([["string"], expect.any(Object)]);
    expect(core).toEqual(served(USER_ATTRIBUTES));
    expect(extension).toEqual(served(ENTERPRISE_ATTRIBUTES));
  });

  it("names every attribute the input schema documents", () => {
    const names = new Set([...USER_ATTRIBUTES, ...ENTERPRISE_ATTRIBUTES].map((d) => d.name));
    const documented = Object.keys(scimUserInput.shape).filter(
      (k) => k !== "schemas" && k !== URN.enterprise,
    );
    expect(documented.filter((k) => !names.has(k))).toEqual([]);
  });

  it("marks what is kept as sent: no field of the app's, and the sign-in address's emails", () => {
    expect(KEPT_AS_SENT).toEqual(
      expect.arrayContaining(["nickName", "emails", "phoneNumbers", "addresses", "manager"]),
    );
    for (const own of ["userName", "displayName", "name", "active", "roles", "department"])
      expect(KEPT_AS_SENT).not.toContain(own);
    expect(NAME_PARTS_KEPT_AS_SENT).toEqual(["middleName", "honorificPrefix", "honorificSuffix"]);
  });
});
