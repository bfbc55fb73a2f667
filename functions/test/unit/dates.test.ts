import { compareInstants, INSTANT_PATTERN, isoOfMillis, parseInstant } from "../../src/lib/dates";

describe("parseInstant: a calendar date or a UTC date-time", () => {
  it.each([
    ["2026-03-01", { seconds: 1_772_323_200, nanos: 0 }],
    ["2026-03-01T08:30Z", { seconds: 1_772_353_800, nanos: 0 }],
    ["2026-03-01T08:30:15Z", { seconds: 1_772_353_815, nanos: 0 }],
    ["2026-03-01T08:30:15.5Z", { seconds: 1_772_353_815, nanos: 500_000_000 }],
    ["2026-03-01T08:30:15.123456789Z", { seconds: 1_772_353_815, nanos: 123_456_789 }],
    ["2024-02-29", { seconds: 1_709_164_800, nanos: 0 }],
    ["1969-12-31T23:59:59Z", { seconds: -1, nanos: 0 }],
  ])("reads %s", (text, instant) => {
    expect(parseInstant(text)).toEqual(instant);
    expect(new RegExp(INSTANT_PATTERN).test(text)).toBe(true);
  });

  it.each([
    "2026-02-30",
    "2025-02-29",
    "2026-13-01",
    "2026-03-01T24:00Z",
    "2026-03-01T08:60Z",
    "2026-03-01T08:30:15+01:00",
    "2026-03-01T08:30",
    "2026-3-1",
    "",
  ])("refuses %j", (text) => {
    expect(parseInstant(text)).toBeNull();
  });
});

describe("compareInstants", () => {
  it("orders by seconds, then nanoseconds", () => {
    const a = { seconds: 10, nanos: 5 };
    expect(compareInstants(a, { seconds: 10, nanos: 6 })).toBeLessThan(0);
    expect(compareInstants(a, { seconds: 9, nanos: 999_999_999 })).toBeGreaterThan(0);
    expect(compareInstants(a, { ...a })).toBe(0);
  });
});

describe("isoOfMillis", () => {
  const native = (ms: number) => new Date(ms).toISOString();

  it("writes what toISOString writes at the edges of Firestore's range and of the calendar", () => {
    const edges = [
      "0001-01-01T00:00:00.000Z",
      "0001-12-31T23:59:59.999Z",
      "1582-10-15T00:00:00.000Z",
      "1899-12-31T23:59:59.999Z",
      "1900-02-28T12:00:00.000Z",
      "1900-03-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "1970-01-01T00:00:00.000Z",
      "2000-02-29T23:59:59.999Z",
      "2024-02-29T00:00:00.001Z",
      "2026-03-01T08:30:05.040Z",
      "2100-02-28T23:59:59.999Z",
      "2100-03-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z",
    ];
    for (const text of edges) expect(isoOfMillis(Date.parse(text))).toBe(text);
  });

  it("agrees with toISOString on every day of four centuries and 200,000 random instants", () => {
    const checked: number[] = [];
    const from = Date.UTC(1800, 0, 1);
    for (let day = 0; day < 146_097; day++) {
      const ms = from + day * 86_400_000 + ((day * 7_919_999) % 86_400_000);
      checked.push(ms);
    }
    const first = Date.parse("0001-01-01T00:00:00Z");
    const span = Date.parse("9999-12-31T23:59:59.999Z") - first;
    let seed = 42;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 200_000; i++) {
      const ms = first + Math.floor(random() * span);
      checked.push(ms);
    }
    const differ = checked.filter((ms) => isoOfMillis(ms) !== native(ms)).slice(0, 5);
    expect(differ.map((ms) => [isoOfMillis(ms), native(ms)])).toEqual([]);
    expect(checked).toHaveLength(346_097);
  });

  it("leaves instants outside the four-digit years to toISOString, and an invalid one throws", () => {
    const before = Date.parse("0001-01-01T00:00:00Z") - 1;
    const after = Date.parse("9999-12-31T23:59:59.999Z") + 1;
    expect(isoOfMillis(before)).toBe("0000-12-31T23:59:59.999Z");
    expect(isoOfMillis(after)).toBe("+010000-01-01T00:00:00.000Z");
    expect(() => isoOfMillis(Number.NaN)).toThrow(RangeError);
  });
});
