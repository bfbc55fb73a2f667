import { compareInstants, INSTANT_PATTERN, parseInstant } from "../../src/lib/dates";

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
