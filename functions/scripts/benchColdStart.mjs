// The whole cold start of an instance on the Functions emulator (a section of `npm run bench`):
// the time from spawning a fresh worker, started as the emulator starts one (its own runtime,
// firebase-tools' functionsEmulatorRuntime.js, in the functions directory, with the function's
// FUNCTION_TARGET, functions/.env and a Unix socket), to the first answered request:
// `GET /v1/project` with a findings key, and a SCIM `GET /Users?filter=userName eq "…"` with a
// provisioning key, each answered 200. Printed: the wall clock, and the worker's CPU taken inside
// it (scripts/benchWorkerPreload.cjs, preloaded with --require) in four parts: Node and the
// runtime before our code, our module load (the runtime's require of the functions directory),
// the runtime's HTTP server up to the request's arrival, and our first request, which loads what
// the code loads at first use and the Firestore client. Medians of ROUNDS workers (made even),
// this code and the code before the bundles (benchBefore.mjs) interleaved worker by worker, and
// the paired difference. The module load of every function (benchModuleLoad.mjs) of both comes
// first, interleaved the same way. Each part with the machine's load average. Under the emulators
// (FIRESTORE_EMULATOR_HOST), after npm run build and scripts/buildTestSupport.mjs:
//   npm run bench:coldstart [-- ROUNDS]   (a section of `npm run bench`)
//   bash scripts/bench.sh benchColdStart.mjs ROUNDS DIR   (the cold start alone, of this code and
//   of DIR, another checkout's built functions/ directory, interleaved)
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BEFORE, withCodeBefore } from "./benchBefore.mjs";
import { alternating, mainOf, moduleLoadFigures } from "./benchModuleLoad.mjs";
import { median, ms } from "./benchStats.mjs";

const require = createRequire(import.meta.url);
const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = 5;
const PRELOAD = join(FUNCTIONS_DIR, "scripts", "benchWorkerPreload.cjs");
const PROJECT = "demo-safety-apis";
/** A worker that has not answered by then is a failure, not a figure. */
const TIMEOUT_MS = 60_000;

/** functions/.env as firebase-tools reads it (KEY=VALUE, comments and blank lines ignored). */
function userEnv(dir) {
  const env = {};
  const file = join(dir, ".env");
  if (!existsSync(file)) return env;
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && !line.trimStart().startsWith("#")) env[m[1]] = m[2];
  }
  return env;
}

const get = (socketPath, path, key) =>
  new Promise((done, fail) => {
    const req = http.get(
      { socketPath, path, headers: { Authorization: `Bearer ${key}` } },
      (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode));
      },
    );
    req.on("error", fail);
  });

/** Stops a worker and waits for it to be gone, so the next one starts alone. */
function stop(worker) {
  if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
  const gone = new Promise((done) => worker.once("exit", done));
  worker.kill();
  return gone;
}

/**
 * Spawns a fresh worker of `dir` for `target` and times its first answer to `path`: the wall
 * clock from the spawn, and the worker's CPU at four points (scripts/benchWorkerPreload.cjs).
 */
async function coldStart(dir, target, path, key) {
  const stamp = `${process.pid}-${Date.now()}`;
  const socketPath = join(tmpdir(), `coldstart-${stamp}.sock`);
  const pointsFile = join(tmpdir(), `coldstart-${stamp}.json`);
  const runtime = join(dir, "node_modules/firebase-tools/lib/emulator/functionsEmulatorRuntime.js");
  const t0 = process.hrtime.bigint();
  const worker = spawn(process.execPath, ["--require", PRELOAD, runtime], {
    cwd: dir,
    env: {
      METADATA_SERVER_DETECTION: "none",
      ...process.env,
      ...userEnv(dir),
      GCLOUD_PROJECT: PROJECT,
      K_REVISION: "1",
      FUNCTION_TARGET: target,
      FUNCTION_SIGNATURE_TYPE: "http",
      K_SERVICE: target,
      FUNCTIONS_EMULATOR: "true",
      TZ: "UTC",
      FIREBASE_CONFIG: JSON.stringify({
        projectId: PROJECT,
        storageBucket: `${PROJECT}.appspot.com`,
      }),
      PORT: socketPath,
      BENCH_LOAD_FILE: pointsFile,
    },
    // The runtime logs to the emulator over the IPC channel.
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  worker.on("message", () => undefined);
  let stderr = "";
  worker.stderr.on("data", (chunk) => (stderr += chunk));
  const failed = (why) => new Error(`worker of ${dir} for ${target} ${why}: ${stderr.slice(-400)}`);
  try {
    for (;;) {
      if (ms(t0) > TIMEOUT_MS) throw failed("timed out");
      if (worker.exitCode !== null || worker.signalCode !== null) throw failed("exited");
      const status = await get(socketPath, path, key).catch(() => null);
      if (status !== null) {
        const wall = ms(t0);
        if (status !== 200) throw failed(`answered ${status}, not 200`);
        // The preload writes its points once the answer is handed to the OS, about when it
        // arrives here, so they are polled for.
        for (let i = 0; i < 100 && !existsSync(pointsFile); i++)
          await new Promise((r) => setTimeout(r, 10));
        if (existsSync(`${pointsFile}.part`))
          throw failed("wrote its points but never renamed them");
        if (!existsSync(pointsFile)) throw failed("recorded no points (preload)");
        return { ms: wall, ...JSON.parse(readFileSync(pointsFile, "utf8")) };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await stop(worker);
    rmSync(pointsFile, { force: true });
    rmSync(`${pointsFile}.part`, { force: true });
    rmSync(socketPath, { force: true });
  }
}

/** The seeded keys and the two first requests a cold start is timed to. */
async function coldStartCases() {
  const {
    seedVessel,
    seedCompany,
    seedKey,
    UNLIMITED,
  } = require("../generated/support/builders.js");
  const vessel = await seedVessel(UNLIMITED);
  const companyId = await seedCompany({ rateLimits: UNLIMITED });
  const { key } = await seedKey({ api: "company", companyId, scopes: ["read", "provisioning"] });
  const filter = encodeURIComponent('userName eq "nobody@contoso.example"');
  return [
    ["findingsApi", "/v1/project", vessel.key, "GET /v1/project (findings key)"],
    [
      "companyApi",
      `/scim/v2/Users?filter=${filter}`,
      key,
      "SCIM GET /Users?filter (provisioning key)",
    ],
  ];
}

/** A way's figures: medians over its workers of the wall clock and of each part of the CPU. */
function coldStartLine(label, runs) {
  const m = (pick) => median(runs.map(pick)).toFixed(0);
  const total = median(runs.map((r) => r.answered));
  const load = median(runs.map((r) => r.loaded - r.required));
  const first = median(runs.map((r) => r.answered - r.arrived));
  const share = (x) => `${((100 * x) / total).toFixed(0)}%`;
  return [
    `  ${label}: first answer ${m((r) => r.ms)} ms wall, worker CPU ${total.toFixed(0)} ms:`,
    `    Node and the runtime before our code ${m((r) => r.required)} ms, ` +
      `our module load ${load.toFixed(0)} ms (${share(load)}), ` +
      `the runtime's server ${m((r) => r.arrived - r.loaded)} ms, ` +
      `our first request ${first.toFixed(0)} ms (${share(first)}; ` +
      `with the code it loads at first use and the Firestore client)`,
  ];
}

/** The difference of two ways' paired figures (B minus A), as a median over the pairs. */
const pairedDifference = (a, b, pick) => median(a.map((run, i) => pick(b[i]) - pick(run)));

/**
 * One block per request: each of the two `ways` ([label, dir] pairs, a built functions/ directory
 * each) gets `rounds` fresh workers (an even number: each way leads as often), the ways
 * alternating worker by worker (A B, B A, A B…, the first way to lead alternating by request too),
 * after one pair not recorded, so that neither draws the first worker after the seeding or a
 * quieter minute than the other.
 */
export async function coldStartFigures(rounds, ways) {
  if (ways.length !== 2 || rounds % 2) throw new Error("two ways and an even number of rounds");
  const cases = await coldStartCases();
  const lines = [
    `cold start on the Functions emulator: a fresh worker spawned to its first answer (200), medians of ${rounds} per way, the two ways interleaved; ` +
      `the worker's CPU taken inside it in parts (scripts/benchWorkerPreload.cjs); our module load is the runtime's require of the functions directory`,
  ];
  for (const [c, [target, path, caseKey, label]] of cases.entries()) {
    const runs = [[], []];
    for (let i = -1; i < rounds; i++) {
      for (const w of alternating(i, c, 2)) {
        const run = await coldStart(ways[w][1], target, path, caseKey);
        if (i >= 0) runs[w].push(run);
      }
    }
    const [a, b] = runs;
    lines.push(
      `  ${label}`,
      ...ways.flatMap(([way], w) => coldStartLine(way, runs[w])),
      `    paired, ${ways[1][0]} minus ${ways[0][0]}: wall ${pairedDifference(a, b, (r) => r.ms).toFixed(0)} ms, ` +
        `worker CPU ${pairedDifference(a, b, (r) => r.answered).toFixed(0)} ms`,
    );
  }
  return lines;
}

/** The cold start's rounds: `rounds`, or one more when odd, so that each way leads as often. */
const evenRounds = (rounds) => rounds + (rounds % 2);

const loadAverage = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`;

/**
 * The module load of every function and the cold start, of this code and of the code before the
 * bundles, the two interleaved process by process.
 */
export async function coldStartSection(rounds = ROUNDS) {
  return withCodeBefore(async (before) => {
    const ways = [
      [`after (${mainOf(FUNCTIONS_DIR)})`, FUNCTIONS_DIR],
      [`before (${BEFORE}, ${mainOf(before)})`, before],
    ];
    const start = loadAverage();
    const [now, old] = moduleLoadFigures(rounds, [FUNCTIONS_DIR, before]);
    return [
      start,
      ...now,
      "",
      `Before the bundles (commit ${BEFORE}, built in a temporary worktree; interleaved with the above, process by process):`,
      ...old,
      "",
      ...(await coldStartFigures(evenRounds(rounds), ways)),
      loadAverage(),
    ];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? ROUNDS);
  const lines = process.argv[3]
    ? [
        loadAverage(),
        ...(await coldStartFigures(evenRounds(rounds), [
          ["this code", FUNCTIONS_DIR],
          [process.argv[3], resolve(process.argv[3])],
        ])),
      ]
    : await coldStartSection(rounds);
  console.log(lines.join("\n"));
  process.exit(0);
}
