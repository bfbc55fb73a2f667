// The export's measurements for scripts/bench.mjs: the export both ways, page by page in step,
// and the floor that the rules put under the ratio of the two.
import { PerformanceObserver, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { forkMeasured } from "./benchServer.mjs";
import { median, ms } from "./benchStats.mjs";

const FLOOR_SCRIPT = fileURLToPath(new URL("./benchFloorServer.mjs", import.meta.url));

export const PAGE = 500;

/**
 * The export through HTTP, one page per call: resolves with the page's time and whether more
 * follow.
 */
function httpPages(base, key) {
  let token = null;
  return async () => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(
      `${base}/v1/findings?limit=${PAGE}${token ? `&page_token=${encodeURIComponent(token)}` : ""}`,
      { headers: { Authorization: `Bearer ${key}` } },
    );
    if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
    const body = await res.json();
    token = body.next_page_token;
    return { ms: ms(t0), findings: body.data.length, more: token !== null };
  };
}

/**
 * The raw pages and the floor, served by a process of their own (scripts/benchFloorServer.mjs),
 * run like the API server: every way's Firestore reads and writes are made from a server process
 * with the deployed NODE_OPTIONS, and this process only asks and, for HTTP and the floor alike,
 * parses a page of JSON of the same size. Measured from this process instead, the raw read's
 * collector picked up the garbage of the HTTP pages parsed here (docs/benchmarks.md, seventh
 * round).
 *   raw    a page read raw with the Admin SDK (its time and CPU as the floor process measured it)
 *   rules  the raw page plus only what the rules add to it, with none of our code:
 *          authentication's one read (key, company, project, counter), the count's one commit
 *          (counter and the pending audit entry; `lastUsedAt` only goes with a minute's first
 *          request) before the page, the entry's status after it, then page 1's JSON (of the
 *          same size) sent plainly and parsed here, as an HTTP page is: the floor under the
 *          export's time.
 * `forget` drops the part timings so far; close it when done.
 */
export async function rulesOnly(big, base) {
  const env = { BENCH_FLOOR: JSON.stringify({ ...big, ids: undefined, base }) };
  const floor = await forkMeasured(FLOOR_SCRIPT, [], env);
  const json = [];
  const steps = (way) => {
    let first = true;
    return async () => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${floor.base}/${way}${first ? "?restart=1" : ""}`);
      first = false;
      if (res.status !== 200) throw new Error(`floor ${way} failed: ${await res.text()}`);
      // The raw read's time is the floor process's own: this process's collector is not in it.
      if (way === "raw") return { ...(await res.json()), timedThere: true };
      const t1 = process.hrtime.bigint();
      await res.json();
      json.push(ms(t1));
      return {
        ms: ms(t0),
        findings: Number(res.headers.get("x-findings")),
        more: res.headers.get("x-more") === "true",
      };
    };
  };
  const page = await fetch(`${base}/v1/findings?limit=${PAGE}`, {
    headers: { Authorization: `Bearer ${big.key}` },
  });
  const bytes = (await page.arrayBuffer()).byteLength;
  const medians = async () => ({ ...(await floor.ask("parts")), json: median(json) });
  const forget = async () => {
    json.splice(0);
    await floor.ask("forget");
  };
  return {
    raw: () => steps("raw"),
    pages: () => steps("rules"),
    medians,
    forget,
    bytes,
    close: () => floor.worker.kill(),
  };
}

/**
 * Orders of `n` ways in which each way follows each other way equally often (a Williams
 * design: n orders for an even n, 2n for an odd one), so that what one way leaves behind (the
 * bench process's garbage, the emulator's work after a write) falls on every other way alike.
 */
export function balancedOrders(n) {
  const first = [0];
  for (let lo = 1, hi = n - 1; first.length < n;) first.push(first.length % 2 ? lo++ : hi--);
  const rows = Array.from({ length: n }, (_, r) => first.map((x) => (x + r) % n));
  return n % 2 ? [...rows, ...rows.map((row) => [...row].reverse())] : rows;
}

/** The bench process's garbage collections (start and duration, ms on performance.now()). */
const collections = [];
let observing = false;
function observeCollections() {
  if (observing) return;
  observing = true;
  new PerformanceObserver((list) => {
    for (const { startTime, duration } of list.getEntries())
      collections.push({ startTime, duration });
  }).observe({ entryTypes: ["gc"] });
}

/**
 * One full export three ways, page by page in step: HTTP page n, raw page n and rules-only
 * page n are read back to back, so all see the machine in the same state; a fourth, `compare`,
 * through another code's server when `compareBase` is given. This VM's speed drifts by a third
 * and more within a minute (the same profile ran in 3.4 s and 5.2 s), which whole exports timed
 * one after the other turned into ratios anywhere from 1.18 to 1.44. Each page's order is the
 * next of balancedOrders, counted on across calls in `turns` (from inStepTurns). Each way's
 * total carries the bench process's collector time inside its own steps (`gcMs`), which its
 * time (`ms`) leaves out.
 */
export async function exportInStep(base, key, rules, compareBase, turns) {
  observeCollections();
  const ways = { http: httpPages(base, key), raw: rules.raw(), rules: rules.pages() };
  if (compareBase) ways.compare = httpPages(compareBase, key);
  const names = Object.keys(ways);
  const orders = balancedOrders(names.length);
  const totals = Object.fromEntries(
    names.map((name) => [name, { ms: 0, findings: 0, requests: 0, cpuMs: [], gcMs: 0 }]),
  );
  const steps = [];
  const open = new Set(names);
  while (open.size) {
    const order = orders[turns.next++ % orders.length].map((i) => names[i]);
    for (const way of order.filter((w) => open.has(w))) {
      const start = performance.now();
      const step = await ways[way]();
      steps.push({ way, start, end: performance.now(), timedHere: !step.timedThere });
      totals[way].ms += step.ms;
      totals[way].findings += step.findings;
      totals[way].requests++;
      if (step.cpuMs !== undefined) totals[way].cpuMs.push(step.cpuMs);
      if (!step.more) open.delete(way);
    }
  }
  await new Promise((resolve) => setImmediate(resolve)); // the observer's last entries
  // This process only asks and parses JSON (the same amount for HTTP and the floor): its
  // collector's time lands on whichever way runs when it starts, so it is left out of every
  // way's time and printed on its own.
  for (const { startTime, duration } of collections.splice(0)) {
    const step = steps.find((s) => startTime >= s.start && startTime < s.end);
    if (!step) continue;
    totals[step.way].gcMs += duration;
    if (step.timedHere) totals[step.way].ms -= duration;
  }
  return totals;
}

/** The turn counter exportInStep's orders go on from, one per series of rounds. */
export const inStepTurns = () => ({ next: 0 });
