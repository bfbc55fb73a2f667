import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { toIso } from "../../src/lib/dates";
import { companyRateLimits, rateLimitOverride } from "../../src/repos/companies";
import { StoredDataError } from "../../src/repos/fieldPath";
import {
  anyValue,
  flag,
  freeForm,
  geoPoint,
  hiddenFlag,
  nullableFlag,
  nullableInteger,
  nullableNumber,
  nullableString,
  oneOf,
  parseSnapshot,
  parseStored,
  parseStoredOrNull,
  requiredOneOf,
  requiredString,
  storedList,
  storedMap,
  stringList,
  text,
  timestamp,
  type Reader,
} from "../../src/repos/stored";
import { logger } from "../support/logger";

const warn = jest.spyOn(logger, "warn").mockImplementation(() => undefined);
const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
beforeEach(() => {
  warn.mockClear();
  error.mockClear();
});

/** The fields logged as invalid since the last clear. */
const logged = () =>
  warn.mock.calls
    .filter(([event]) => event === "stored.invalid_field")
    .map(([, fields]) => (fields as { field: string }).field);

// Each read gets a document of its own: a cause is logged once per document and field.
let docs = 0;
const newDoc = () => `things/d${++docs}`;

/** A value read as field `f` of a fresh document, and the fields it logged. */
function read<T>(reader: Reader<T>, value: unknown): { value: T; logged: string[] } {
  warn.mockClear();
  return { value: parseStored({ f: reader }, newDoc(), { f: value }).f, logged: logged() };
}

const when = Timestamp.fromMillis(1_700_000_000_000);

describe("one reader per field kind: fits, absent, wrong type (logged), fallback", () => {
  const cases: Array<
    [string, Reader<unknown>, Array<[unknown, unknown]>, Array<[unknown, unknown]>]
  > = [
    // name, reader, [value that fits or is absent, read as] (not logged), [misfit, read as]
    // (logged)
    [
      "timestamp",
      timestamp,
      [
        [when, when],
        [undefined, null],
        [null, null],
      ],
      [
        ["2026-01-01", null],
        [new Date(0), null],
        [1_700_000_000, null],
      ],
    ],
    [
      "nullableString",
      nullableString,
      [
        ["x", "x"],
        ["", ""],
        [undefined, null],
        [null, null],
      ],
      [
        [5, null],
        [["x"], null],
      ],
    ],
    [
      "nullableNumber",
      nullableNumber,
      [
        [1.5, 1.5],
        [-7, -7],
        [null, null],
      ],
      [
        [NaN, null],
        [Infinity, null],
        ["3", null],
      ],
    ],
    [
      "nullableInteger",
      nullableInteger,
      [
        [3, 3],
        [-0, -0],
        [undefined, null],
      ],
      [
        [1.5, null],
        [2 ** 53, null],
        ["3", null],
      ],
    ],
    [
      "nullableFlag",
      nullableFlag,
      [
        [true, true],
        [false, false],
        [null, null],
        [undefined, null],
      ],
      [
        ["true", null],
        [1, null],
      ],
    ],
    [
      "text",
      text,
      [
        ["x", "x"],
        [undefined, ""],
        [null, ""],
      ],
      [
        [5, ""],
        [{}, ""],
      ],
    ],
    [
      "flag",
      flag,
      [
        [true, true],
        [undefined, false],
        [null, false],
      ],
      [
        ["yes", false],
        [1, false],
      ],
    ],
    [
      "hiddenFlag",
      hiddenFlag,
      [
        [true, true],
        [false, false],
        [undefined, false],
        [null, false],
      ],
      [
        ["false", true],
        [0, true],
        [{}, true],
      ],
    ],
    [
      "freeForm",
      freeForm,
      [
        [{ a: 1 }, { a: 1 }],
        [undefined, {}],
        [null, {}],
      ],
      [
        [[1], {}],
        ["x", {}],
        [when, {}],
      ],
    ],
    [
      "anyValue",
      anyValue,
      [
        [undefined, undefined],
        [null, null],
        [when, when],
        [
          [1, "a"],
          [1, "a"],
        ],
      ],
      [],
    ],
    [
      "stringList",
      stringList,
      [
        [
          ["a", "b"],
          ["a", "b"],
        ],
        [[], []],
        [undefined, []],
        [null, []],
      ],
      [
        ["a", []],
        [{ 0: "a" }, []],
      ],
    ],
    [
      "oneOf",
      oneOf(["image", "file"], "file"),
      [
        ["image", "image"],
        [undefined, "file"],
        [null, "file"],
      ],
      [
        ["gif", "file"],
        [1, "file"],
      ],
    ],
    [
      "geoPoint",
      geoPoint,
      [
        [new GeoPoint(59.9, 10.7), { latitude: 59.9, longitude: 10.7 }],
        [
          { latitude: -90, longitude: 180, extra: 1 },
          { latitude: -90, longitude: 180 },
        ],
        [null, null],
      ],
      [
        [{ latitude: 91, longitude: 0 }, null],
        [{ latitude: "59", longitude: 10 }, null],
        [[59.9, 10.7], null],
        ["59.9,10.7", null],
      ],
    ],
    [
      "rateLimitOverride",
      rateLimitOverride,
      [
        [{ perMinute: 5 }, { perMinute: 5 }],
        [
          { perMinute: 5, perDay: 100 },
          { perMinute: 5, perDay: 100 },
        ],
        [undefined, undefined],
      ],
      [
        [null, undefined],
        [{ perMinute: 0 }, undefined],
        [{ perDay: 1.5 }, undefined],
        [[5], undefined],
      ],
    ],
  ];

  it.each(cases)("%s", (_name, reader, fitting, misfits) => {
    for (const [value, expected] of fitting)
      expect([value, read(reader, value)]).toEqual([value, { value: expected, logged: [] }]);
    for (const [value, expected] of misfits)
      expect([value, read(reader, value)]).toEqual([value, { value: expected, logged: ["f"] }]);
  });

  it("stringList leaves out (and logs) elements that are not strings", () => {
    expect(read(stringList, ["a", 1, null, "b"])).toEqual({
      value: ["a", "b"],
      logged: ["f.1", "f.2"],
    });
  });

  it("companyRateLimits reads each part on its own: an invalid one is ignored and logged", () => {
    const arranged = { perMinute: 120, provisioning: { perMinute: 3000, perDay: 200_000 } };
    expect(read(companyRateLimits, arranged)).toEqual({ value: arranged, logged: [] });
    expect(read(companyRateLimits, undefined)).toEqual({ value: undefined, logged: [] });
    expect(read(companyRateLimits, "lots")).toEqual({ value: undefined, logged: ["f"] });
    expect(
      read(companyRateLimits, {
        perMinute: 0,
        perDay: 50_000,
        provisioning: { perMinute: "3000" },
        read: { perDay: 40_000 },
      }),
    ).toEqual({
      value: { perDay: 50_000, read: { perDay: 40_000 } },
      logged: ["f.perMinute", "f.provisioning"],
    });
  });
});

describe("nested maps and lists", () => {
  const item = storedMap({ title: text, answer: nullableString, when: timestamp });
  const shape = { checklist: storedList(item), last: item, markers: storedList(anyValue) };

  it("keeps every list element's position: one that does not fit becomes null", () => {
    const doc = newDoc();
    const checklist = [{ title: "a" }, 7, null, { title: "d", when }];
    const read = parseStored(shape, doc, { checklist, markers: [{ x: 1 }, null] });
    expect(read.checklist).toEqual([
      { title: "a", answer: null, when: null },
      null,
      null,
      { title: "d", answer: null, when },
    ]);
    expect(read.markers).toEqual([{ x: 1 }, null]);
    expect(read.last).toBeNull();
    expect(logged()).toEqual(["checklist.1", "checklist.2", "markers.1"]);
  });

  it("logs a nested field with its full path, once per document and field", () => {
    const data = {
      checklist: [{}, {}, {}, { title: "t", answer: 42 }],
      last: { when: "yesterday" },
    };
    const doc = newDoc();
    const first = parseStored(shape, doc, data);
    expect(first.checklist[3]).toEqual({ title: "t", answer: null, when: null });
    expect(first.last).toEqual({ title: "", answer: null, when: null });
    parseStored(shape, doc, data);
    expect(warn.mock.calls).toEqual([
      [
        "stored.invalid_field",
        { event: "stored.invalid_field", document: doc, field: "checklist.3.answer" },
      ],
      [
        "stored.invalid_field",
        { event: "stored.invalid_field", document: doc, field: "last.when" },
      ],
    ]);
    warn.mockClear();
    parseStored(shape, newDoc(), data);
    expect(logged()).toEqual(["checklist.3.answer", "last.when"]);
  });

  it("reads a list or map of another type as empty (logged)", () => {
    expect(read(storedList(item), { 0: {} })).toEqual({ value: [], logged: ["f"] });
    expect(read(item, ["title"])).toEqual({ value: null, logged: ["f"] });
    expect(read(item, when)).toEqual({ value: null, logged: ["f"] });
  });
});

describe("an unusable document", () => {
  const shape = {
    api: requiredOneOf(["findings", "company"]),
    companyId: requiredString,
    name: text,
  };

  it("is one whose required field is missing or invalid: StoredDataError, logged", () => {
    const doc = newDoc();
    expect(() => parseStored(shape, doc, { api: "findings", name: "k" })).toThrow(
      new StoredDataError(doc, "companyId"),
    );
    expect(error.mock.calls).toEqual([
      [
        "stored.unusable_document",
        { event: "stored.unusable_document", document: doc, field: "companyId" },
      ],
    ]);
    expect(logged()).toEqual(["companyId"]);
    expect(parseStoredOrNull(shape, newDoc(), { api: "other", companyId: "c" })).toBeNull();
    expect(parseStoredOrNull(shape, newDoc(), { api: "company", companyId: "" })).toBeNull();
    expect(parseStoredOrNull(shape, newDoc(), { api: "company", companyId: "c", name: 3 })).toEqual(
      { api: "company", companyId: "c", name: "" },
    );
  });

  it("includes one whose nested required field is missing, named by its path", () => {
    const doc = newDoc();
    const nested = { owner: storedMap({ id: requiredString }) };
    expect(() => parseStored(nested, doc, { owner: { id: 5 } })).toThrow(
      new StoredDataError(doc, "owner.id"),
    );
    expect(parseStored(nested, newDoc(), {})).toEqual({ owner: null });
  });
});

describe("parseSnapshot: a document read with its id", () => {
  const shape = {
    title: text,
    when: timestamp,
    items: storedList(storedMap({ title: text, done: flag })),
    extra: anyValue,
  };
  const snap = (data: unknown, id = "doc1") => ({
    id,
    ref: { path: `things/${id}` },
    data: () => data,
  });

  it("is the id and then the shape's fields, in the shape's order", () => {
    const read = parseSnapshot(
      shape,
      snap({ items: [{ title: "a", done: true }, 7], when: null, title: 3, unknown: "ignored" }),
    );
    expect(Object.keys(read)).toEqual(["id", "title", "when", "items", "extra"]);
    expect(read).toEqual({
      id: "doc1",
      title: "",
      when: null,
      items: [{ title: "a", done: true }, null],
      extra: undefined,
    });
  });

  it("builds a fresh object every time; a document that is not a map reads as all absent", () => {
    const first = parseSnapshot(shape, snap({ title: "one" }));
    const second = parseSnapshot(shape, snap({ title: "two" }, "doc2"));
    expect([first.id, first.title, second.id, second.title]).toEqual([
      "doc1",
      "one",
      "doc2",
      "two",
    ]);
    expect(parseStored(shape, "things/x", undefined)).toEqual({
      title: "",
      when: null,
      items: [],
      extra: undefined,
    });
    expect(parseStored(shape, "things/x", {})).not.toHaveProperty("id");
  });
});

describe("toIso: ISO-8601 UTC with milliseconds, finer precision cut (never later than stored)", () => {
  it.each([
    [new Timestamp(-62135596800, 0), "0001-01-01T00:00:00.000Z"],
    [new Timestamp(0, 499_999), "1970-01-01T00:00:00.000Z"],
    [new Timestamp(0, 500_000), "1970-01-01T00:00:00.000Z"],
    [new Timestamp(0, 1_999_999), "1970-01-01T00:00:00.001Z"],
    [new Timestamp(-1, 999_999_999), "1969-12-31T23:59:59.999Z"],
    [new Timestamp(86_399, 999_600_000), "1970-01-01T23:59:59.999Z"],
    [new Timestamp(951_782_400, 0), "2000-02-29T00:00:00.000Z"],
    [new Timestamp(1_700_000_000, 999_999_999), "2023-11-14T22:13:20.999Z"],
    [new Timestamp(253402300799, 999_999_999), "9999-12-31T23:59:59.999Z"],
  ])("%o is %s", (t, iso) => {
    expect(toIso(t)).toBe(iso);
  });

  it("is null for null", () => {
    expect(toIso(null)).toBeNull();
  });
});
