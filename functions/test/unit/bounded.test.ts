import { firstTimeFilter, setBounded } from "../../src/lib/bounded";

describe("per-instance memory with a bound", () => {
  it("setBounded forgets the oldest entry, and a key set again counts as newest", () => {
    const map = new Map<string, number>();
    for (const [key, value] of [
      ["a", 1],
      ["b", 2],
      ["a", 3],
      ["c", 4],
    ] as const)
      setBounded(map, key, value, 2);
    expect([...map.entries()]).toEqual([
      ["a", 3],
      ["c", 4],
    ]);
  });

  it("firstTimeFilter says yes once per key, and starts over past its bound", () => {
    const first = firstTimeFilter(2);
    expect(["x", "x", "y", "y"].map(first)).toEqual([true, false, true, false]);
    expect(first("z")).toBe(true);
    expect(first("x")).toBe(true);
  });
});
