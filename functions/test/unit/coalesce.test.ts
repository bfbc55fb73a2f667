import { Coalescer } from "../../src/lib/coalesce";

describe("group commit per key (Coalescer)", () => {
  it("serves calls that arrive during a run together in the next run, at most maxBatch at a time, in order", async () => {
    const runs: number[][] = [];
    const coalescer = new Coalescer<number, string>(async (_key, args) => {
      runs.push(args);
      await new Promise((r) => setTimeout(r, 5));
      return args.map((a) => `done ${a}`);
    }, 3);
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => coalescer.submit("k", n)));
    expect(results).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `done ${n}`));
    expect(runs).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
  });

  it("a failed run fails its own calls only", async () => {
    let run = 0;
    const coalescer = new Coalescer<number, number>(async (_key, args) => {
      run++;
      await new Promise((r) => setTimeout(r, 5));
      if (run === 2) throw new Error("second run failed");
      return args;
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => coalescer.submit("k", n)));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(await coalescer.submit("k", 4)).toBe(4);
  });
});
