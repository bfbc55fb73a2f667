// The whole cold start of an instance on the Functions emulator (a section of `npm run bench`):
// the time from spawning a fresh worker, started as the emulator starts one (its own runtime,
// firebase-tools' functionsEmulatorRuntime.js, in the functions directory, with the function's
// FUNCTION_TARGET, functions/.env and a Unix socket), to the first answered request:
// `GET /v1/project` with a findings key, and a SCIM `GET /Users?filter=userName eq "…"` with a
// provisioning key. Printed: wall clock and the worker's CPU (Linux: /proc), medians of ROUNDS
// fresh workers, and where that CPU went, taken inside the same worker
// (scripts/benchWorkerPreload.mjs): the runtime's own start before it loads our code, our module
// load (its require of the functions directory), and the rest up to the answer. This code and the
// code before the bundles (benchBefore.mjs) are measured interleaved, worker by worker, and so is
// the module load of every function (benchModuleLoad.mjs) before it, each part with the machine's
// load average. Under the emulators (FIRESTORE_EMULATOR_HOST), after npm run build and
// scripts/buildTestSupport.mjs:
//   npm run bench:coldstart [-- ROUNDS]   (a section of `npm run bench`)
//   bash scripts/bench.sh benchColdStart.mjs ROUNDS DIR   (the cold start alone, of this code and
//   of DIR, another checkout's built functions/ directory, interleaved)
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BEFORE, withCodeBefore } from "./benchBefore.mjs";
import { mainOf, moduleLoadFigures } from "./benchModuleLoad.mjs";

const require = createRequire(import.meta.url);
const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = 5;
const PRELOAD = join(FUNCTIONS_DIR, "scripts", "benchWorkerPreload.mjs");
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

/** CPU ms a process has used so far (utime + stime from /proc, in clock ticks of 10 ms). */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
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

/** Spawns a fresh worker of `dir` for `target` and times its first answer to `path`. */
async function coldStart(dir, target, path, key) {
  const stamp = `${process.pid}-${Date.now()}`;
  const socketPath = join(tmpdir(), `coldstart-${stamp}.sock`);
  const loadFile = join(tmpdir(), `coldstart-${stamp}.json`);
  const runtime = join(dir, "node_modules/firebase-tools/lib/emulator/functionsEmulatorRuntime.js");
  const t0 = process.hrtime.bigint();
  const worker = spawn(process.execPath, ["--import", pathToFileURL(PRELOAD).href, runtime], {
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
      BENCH_LOAD_FILE: loadFile,
    },
    // The runtime logs to the emulator over the IPC channel.
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  worker.on("message", () => undefined);
  let stderr = "";
  worker.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    for (;;) {
      if (Number(process.hrtime.bigint() - t0) / 1e6 > TIMEOUT_MS || worker.exitCode !== null)
        throw new Error(`worker for ${target} did not answer: ${stderr.slice(-400)}`);
      const status = await get(socketPath, path, key).catch(() => null);
      if (status !== null) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const cpu = cpuOf(worker.pid);
        if (!existsSync(loadFile))
          throw new Error(`worker for ${target}: the runtime did not require ${dir} (preload)`);
        return { ms, cpu, status, ...JSON.parse(readFileSync(loadFile, "utf8")) };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    worker.kill();
    rmSync(loadFile, { force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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

/** One worker's figures, as medians: wall and CPU to the first answer, and where the CPU went. */
function coldStartLine(label, runs) {
  const m = (pick) => median(runs.map(pick));
  const cpu = m((r) => r.cpu);
  const load = m((r) => r.loadCpu);
  const runtime = m((r) => r.runtimeCpu);
  return (
    `  ${label.padEnd(16)} ${m((r) => r.ms).toFixed(0)} ms wall, worker CPU ${cpu} ms ` +
    `(status ${runs[0].status}): the runtime before our code ${runtime.toFixed(0)} ms, ` +
    `our module load ${load.toFixed(0)} ms [${m((r) => r.loadMs).toFixed(0)} wall] = ` +
    `${((100 * load) / cpu).toFixed(0)}% of the worker's CPU, the rest to the answer ` +
    `${m((r) => r.cpu - r.runtimeCpu - r.loadCpu).toFixed(0)} ms`
  );
}

/**
 * One block per request: each of `ways` ([label, dir] pairs, a built functions/ directory each)
 * gets ROUNDS fresh workers, the ways alternating worker by worker (ABBA: A B, B A, A B…), so
 * that no way draws a quieter minute than another.
 */
export async function coldStartFigures(rounds, ways) {
  const cases = await coldStartCases();
  const lines = [
    `cold start on the Functions emulator: a fresh worker spawned to its first answer, medians of ${rounds} per way, the ways interleaved; ` +
      `module load = the CPU of the runtime's require of the functions directory, taken inside the worker (scripts/benchWorkerPreload.mjs)`,
  ];
  for (const [target, path, caseKey, label] of cases) {
    const runs = ways.map(() => []);
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? [...ways.keys()].reverse() : [...ways.keys()];
      for (const w of order) runs[w].push(await coldStart(ways[w][1], target, path, caseKey));
    }
    lines.push(`  ${label}`, ...ways.map(([way], w) => coldStartLine(way, runs[w])));
  }
  return lines;
}

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
      ...(await coldStartFigures(rounds, ways)),
      loadAverage(),
    ];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? ROUNDS);
  const lines = process.argv[3]
    ? [
        loadAverage(),
        ...(await coldStartFigures(rounds, [
          ["this code", FUNCTIONS_DIR],
          [process.argv[3], resolve(process.argv[3])],
        ])),
      ]
    : await coldStartSection(rounds);
  console.log(lines.join("\n"));
  process.exit(0);
}
