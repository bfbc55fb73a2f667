import {
  decideMany,
  refusedByAll,
  shardCount,
  shardLimits,
  sliceOf,
} from "../../src/services/rateLimit";

describe("sharded counter arithmetic", () => {
  it("keeps one document up to 60/min and shards above it, at most 32", () => {
    expect(shardCount({ perMinute: 60, perDay: 10_000 })).toBe(1);
    expect(shardCount({ perMinute: 61, perDay: 10_000 })).toBe(2);
    expect(shardCount({ perMinute: 240, perDay: 10_000 })).toBe(4);
    expect(shardCount({ perMinute: 100_000, perDay: 10_000 })).toBe(32);
  });

  it("slices sum exactly to the limit, remainders to the first shards", () => {
    for (const [total, n] of [
      [3000, 32],
      [121, 3],
      [10, 32],
      [10_000, 7],
    ]) {
      const slices = Array.from({ length: n }, (_, i) => sliceOf(total, n, i));
      expect(slices.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...slices) - Math.min(...slices)).toBeLessThanOrEqual(1);
      expect([...slices].sort((a, b) => b - a)).toEqual(slices);
    }
    expect(shardLimits({ perMinute: 121, perDay: 10 }, 3, 0)).toEqual({ perMinute: 41, perDay: 4 });
  });

  it("a request refused by every shard waits for the first shard to reopen; the day only when every day slice is spent", () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 30);
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const limits = { perMinute: 120, perDay: 200 };
    const minuteFull = decideMany(
      { minuteWindow: minute, minuteCount: 60, dayWindow: day, dayCount: 60 },
      now,
      shardLimits(limits, 2, 0),
      1,
    )[0];
    const dayFull = decideMany(
      { minuteWindow: minute, minuteCount: 10, dayWindow: day, dayCount: 100 },
      now,
      shardLimits(limits, 2, 1),
      1,
    )[0];
    const both = refusedByAll([minuteFull, dayFull], limits);
    expect(both.allowed).toBe(false);
    expect(both.limitedBy).toBe("minute");
    expect(both.retryAfterSeconds).toBe(30);
    expect(both.windows[0]).toMatchObject({ limit: 120, remaining: 0, resetSeconds: 30 });
    expect(refusedByAll([dayFull, dayFull], limits).limitedBy).toBe("day");
  });
});
