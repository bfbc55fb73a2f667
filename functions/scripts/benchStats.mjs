// The benches' two summaries of a sample and their clock, one definition each.

/** Milliseconds since `t0`, a `process.hrtime.bigint()`. */
export const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

/** The p-th percentile: the value at rank floor(p% of n) of the sorted sample (p95, quartiles). */
export const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** The median; of an even count, the mean of the middle two (not the upper one, as `pct` gives). */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
};
