import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { z } from "zod";
import { parseSnapshot, parseStored, readByZod, storedList, storedMap } from "../../src/repos/stored";
import { anyValue, flag, geoPoint, hiddenFlag, nonNegativeInteger, nullableInteger, nullableNumber, nullableString, stringList, text, timestamp } from "../../src/repos/storedFields";

/**
 * The fast readers of repos/storedFields.ts must read every stored value exactly as the zod schema
 * they shortcut: same value, same fallback. Each schema against values of every stored type.
 */
const VALUES: unknown[] = [
  undefined, null, "", "x", " 2026 ", 0, -0, 1, 1.5, -7, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 60, true, false,
  Timestamp.fromMillis(1_700_000_000_000), new GeoPoint(59.9, 10.7), { latitude: 59.9, longitude: 10.7 }, { latitude: 91, longitude: 0 },
  {}, { a: 1 }, [], ["a"], ["a", 1], [null], [{ title: "t" }], [{ title: 5, done: "yes" }, null], new Date(0), Buffer.from("x"),
];

const SCHEMAS: Record<string, z.ZodType> = {
  timestamp, nullableString, nullableNumber, nullableInteger, nonNegativeInteger, text, flag, hiddenFlag, stringList, geoPoint, anyValue,
  map: storedMap({ title: text, when: timestamp }),
  list: storedList(storedMap({ title: text, done: flag })),
  listOfStrings: storedList(nullableString),
};

describe("fast readers of stored fields", () => {
  it.each(Object.entries(SCHEMAS))("%s reads every value as its zod schema does", (_name, schema) => {
    for (const value of VALUES) {
      const fast = parseStored({ f: schema }, "test/doc", { f: value }).f;
      const zod = parseStored({ f: z.unknown().transform((v) => readByZod(schema, v, "f")) }, "test/doc", { f: value }).f;
      expect([value, fast]).toEqual([value, zod]);
    }
  });
});

describe("parseSnapshot: a document read with its id", () => {
  const shape = { title: text, when: timestamp, items: storedList(storedMap({ title: text, done: flag })), extra: z.string().optional() };
  const snap = (data: unknown) => ({ id: "doc1", ref: { path: "things/doc1" }, data: () => data });

  it("is the id and then the shape's fields, in the shape's order, as parseStored reads them", () => {
    const data = { items: [{ title: "a", done: true }, 7], when: null, title: 3, unknown: "ignored" };
    const read = parseSnapshot(shape, snap(data));
    expect(read).toEqual({ id: "doc1", ...parseStored(shape, "things/doc1", data) });
    expect(Object.keys(read)).toEqual(["id", "title", "when", "items", "extra"]);
    expect(read).toEqual({ id: "doc1", title: "", when: null, items: [{ title: "a", done: true }, null], extra: undefined });
  });

  it("builds a fresh object every time (no state shared between documents)", () => {
    const first = parseSnapshot(shape, snap({ title: "one" }));
    const second = parseSnapshot(shape, { ...snap({ title: "two" }), id: "doc2" });
    expect([first.id, first.title, second.id, second.title]).toEqual(["doc1", "one", "doc2", "two"]);
    expect(parseStored(shape, "things/x", {})).not.toHaveProperty("id");
  });
});
