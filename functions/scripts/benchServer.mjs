// The server process of `npm run bench` (scripts/bench.mjs): one API app on a free port, run
// with the NODE_OPTIONS the functions are deployed with (functions/.env), answering the bench's
// questions about its memory and its Firestore round trips over the fork channel.
import { fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { median } from "./benchStats.mjs";

const require = createRequire(import.meta.url);

function serve(app) {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}` }),
    );
  });
}

/**
 * Sequential Firestore round trips: every read (getAll behind a document get, a query) and every
 * commit is counted while in flight; a "wave" starts whenever the count leaves 0. Requests are
 * sent one at a time, so the waves of a request are its sequential round trips.
 */
function countRoundTrips() {
  const { Firestore, Query, WriteBatch } = require("@google-cloud/firestore");
  let inFlight = 0;
  let waves = 0;
  const track = (proto, name) => {
    const original = proto[name];
    proto[name] = function (...args) {
      if (inFlight++ === 0) waves++;
      const done = () => inFlight--;
      const result = original.apply(this, args);
      result.then(done, done);
      return result;
    };
  };
  track(Firestore.prototype, "getAll");
  track(Query.prototype, "get");
  track(WriteBatch.prototype, "commit");
  const takeWaves = () => {
    const counted = waves;
    waves = 0;
    return counted;
  };
  return { take: takeWaves };
}

/**
 * The server's memory. At "idle": its resident size now, and (Linux) the kernel's high-water
 * mark reset to it, so the next peak is that of the pages alone rather than of start-up (module
 * loading and the OpenAPI document peak higher than a warm idle process sits). After the pages:
 * that high-water mark. Elsewhere the process's lifetime peak stands in for both.
 */
export function memoryNow(idle) {
  const mib = (kb) => kb / 1024;
  const young =
    v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")
      .physical_space_size / 1048576;
  try {
    if (idle) writeFileSync("/proc/self/clear_refs", "5");
    const status = readFileSync("/proc/self/status", "utf8");
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)[1]);
    return { rssMiB: mib(idle ? field("VmRSS") : field("VmHWM")), youngMiB: young };
  } catch {
    return { rssMiB: mib(process.resourceUsage().maxRSS), youngMiB: young };
  }
}

/**
 * The CPU time and the garbage collectors' time of each page of 500 the server answers, from its
 * arrival to its last byte: what the server itself spends on a page, without the machine's
 * other work that the wall-clock share carries. `take` gives the medians so far and starts anew.
 */
function pageCosts(server) {
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ["gc"] });
  let pages = [];
  server.on("request", (req, res) => {
    if (!req.url.includes("limit=500")) return;
    const cpu = process.cpuUsage();
    const gc = gcMs;
    res.on("finish", () => {
      const used = process.cpuUsage(cpu);
      pages.push({ cpu: (used.user + used.system) / 1000, gc: gcMs - gc });
    });
  });
  return () => {
    const taken = pages;
    pages = [];
    return {
      pages: taken.length,
      cpuMs: median(taken.map((p) => p.cpu)),
      gcMs: median(taken.map((p) => p.gc)),
    };
  };
}

/**
 * Child: serves the app and reports its peak RSS after one big page, its round trips, or its
 * pages' costs.
 */
async function child() {
  const roundTrips = countRoundTrips();
  // Loaded here, not at the top: benchInstanceServer.mjs imports this file into the processes it
  // measures.
  const app =
    process.argv[3] === "company"
      ? require("../lib/company/app.js").createCompanyApp()
      : require("../lib/findings/app.js").createFindingsApp();
  const { server, base } = await serve(app);
  const takePageCosts = pageCosts(server);
  process.send({ base });
  process.on("message", (m) => {
    if (m === "exit") process.exit(0);
    else if (m === "roundTrips") process.send({ roundTrips: roundTrips.take() });
    else if (m === "pageCosts") process.send(takePageCosts());
    else process.send(memoryNow(m === "idle"));
  });
}

/**
 * The Node options the functions are deployed with (functions/.env), so the server measured is the
 * one deployed.
 */
export function deployedNodeOptions() {
  const line = readFileSync(new URL("../.env", import.meta.url), "utf8")
    .split("\n")
    .find((l) => l.startsWith("NODE_OPTIONS="));
  return line ? line.slice("NODE_OPTIONS=".length).trim() : "";
}

/**
 * Forks `script` with `args` (and `env` added) under this checkout's deployed NODE_OPTIONS, then
 * `nodeOptions`; resolves once it has sent its address: the process, that address, and `ask`,
 * which sends it a question and resolves with its answer.
 */
export async function forkMeasured(script, args, env = {}, nodeOptions = "") {
  const worker = fork(script, args, {
    env: { ...process.env, ...env, NODE_OPTIONS: `${deployedNodeOptions()} ${nodeOptions}`.trim() },
  });
  const { base } = await new Promise((r) => worker.once("message", r));
  const ask = (question) =>
    new Promise((resolve) => {
      worker.once("message", resolve);
      worker.send(question);
    });
  return { worker, base, ask };
}

/**
 * Starts the server process for `api` (from `dir`, another checkout's built functions/, if
 * given; with this checkout's NODE_OPTIONS either way).
 */
export function startServer(api = "findings", dir = undefined) {
  // Another checkout's functions/ directory (built) serves its own code with its own script.
  const script = dir ? `${dir}/scripts/benchServer.mjs` : fileURLToPath(import.meta.url);
  return forkMeasured(script, ["child", api]);
}

if (process.argv[2] === "child") await child();
