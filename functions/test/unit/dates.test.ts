import { Timestamp } from "firebase-admin/firestore";
import { isoOfMillis, timestampIso } from "../../src/lib/dates";

/** The reference both must equal: what the SDK and Date print (toDate() rounds to the millisecond). */
const reference = (t: Timestamp) => t.toDate().toISOString();

describe("timestampIso: Timestamp.toDate().toISOString(), faster", () => {
  it("agrees at the edges of Firestore's range, of the epoch and of a day", () => {
    const cases = [
      new Timestamp(-62135596800, 0), // 0001-01-01T00:00:00Z, the smallest timestamp
      new Timestamp(253402300799, 999_999_999), // rounds up into year 10000: "+010000-…"
      new Timestamp(253402300799, 999_000_000),
      new Timestamp(-1, 999_999_999), // rounds up to the epoch
      new Timestamp(-1, 500_000), // 1969-12-31T23:59:59.001Z
      new Timestamp(0, 0),
      new Timestamp(0, 499_999), // rounds down
      new Timestamp(0, 500_000), // rounds up, as toDate() does
      new Timestamp(86_399, 999_600_000), // 23:59:59.9996 rounds into the next day
      new Timestamp(951_782_400, 0), // 2000-02-29, a leap day
      new Timestamp(1_767_225_599, 123_456_789),
    ];
    for (const t of cases) expect(timestampIso(t)).toBe(reference(t));
  });

  it("agrees on 200,000 random instants over the whole range (the day cache fills and is cleared many times)", () => {
    let seed = 42;
    // Park-Miller: exact in doubles, period 2^31 - 2.
    const next = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647);
    const span = 253402300799 + 62135596800;
    const mismatches: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const t = new Timestamp(Math.floor(next() * span) - 62135596800, Math.floor(next() * 1e9));
      if (timestampIso(t) !== reference(t)) mismatches.push(`${t.seconds}.${t.nanoseconds}`);
      // Same day again, another time of it: the cached date part is reused.
      const again = new Timestamp(Math.floor(t.seconds / 86_400) * 86_400 + Math.floor(next() * 86_400), 0);
      if (timestampIso(again) !== reference(again)) mismatches.push(`${again.seconds}.0`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("formats plain milliseconds as Date does", () => {
    for (const ms of [0, 1, 999, 1000, 59_999, 3_600_000, 86_399_999, -1, -86_400_000, 1_700_000_000_123]) {
      expect(isoOfMillis(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
