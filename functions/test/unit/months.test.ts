import { monthWindow } from "../../src/lib/months";

describe("UTC months", () => {
  it("an index past either end of the year runs into the neighbouring years", () => {
    const months = Array.from({ length: 24 }, (_, i) => monthWindow(2026, i - 23));
    expect(months.map((m) => m.key)).toEqual([
      "2024-02",
      "2024-03",
      "2024-04",
      "2024-05",
      "2024-06",
      "2024-07",
      "2024-08",
      "2024-09",
      "2024-10",
      "2024-11",
      "2024-12",
      "2025-01",
      "2025-02",
      "2025-03",
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
    ]);
    expect(months[0].start.toISOString()).toBe("2024-02-01T00:00:00.000Z");
    expect(months[23].end.toISOString()).toBe("2026-02-01T00:00:00.000Z");
  });

  it("a month ends where the next begins", () => {
    const year = Array.from({ length: 12 }, (_, i) => monthWindow(2024, i));
    expect(year.map((m) => m.key)).toEqual([
      "2024-01",
      "2024-02",
      "2024-03",
      "2024-04",
      "2024-05",
      "2024-06",
      "2024-07",
      "2024-08",
      "2024-09",
      "2024-10",
      "2024-11",
      "2024-12",
    ]);
    year.slice(1).forEach((m, i) => expect(m.start).toEqual(year[i].end));
    expect(year[1].end.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(year[11].end.toISOString()).toBe("2025-01-01T00:00:00.000Z");
  });
});
