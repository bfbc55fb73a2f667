// The whole cold start of an instance on the Functions emulator (a section of `npm run bench`):
// the time from spawning a fresh worker, started as the emulator starts one (its own runtime,
// firebase-tools' functionsEmulatorRuntime.js, in the functions directory, with the function's
// FUNCTION_TARGET, functions/.env and a Unix socket), to the first answered request:
// `GET /v1/project` with a findings key, and a SCIM `GET /Users?filter=userName eq "…"` with a
// provisioning key. Printed: wall clock and the worker's CPU (Linux: /proc), medians of ROUNDS
// fresh workers, and the share of that CPU that is our module load (benchModuleLoad.mjs's figure
// for the function). Under the emulators (FIRESTORE_EMULATOR_HOST), after npm run build and
// scripts/buildTestSupport.mjs, with the module load of every function (benchModuleLoad.mjs)
// before it and both again on the code before the bundles (benchBefore.mjs) after it, each part
// with the machine's load average:
//   npm run bench:coldstart [-- ROUNDS]   (a section of `npm run bench`)
//   bash scripts/bench.sh benchColdStart.mjs ROUNDS DIR   (the cold start alone, of DIR: another
//   checkout's built functions/ directory)
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BEFORE, withCodeBefore } from "./benchBefore.mjs";
import { moduleLoadFigure, moduleLoadFigures } from "./benchModuleLoad.mjs";

const require = createRequire(import.meta.url);
const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = 5;
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

/** Spawns a fresh worker for `target` and times its first answer to `path`. */
async function coldStart(dir, target, path, key) {
  const socketPath = join(tmpdir(), `coldstart-${process.pid}-${Date.now()}.sock`);
  const runtime = join(dir, "node_modules/firebase-tools/lib/emulator/functionsEmulatorRuntime.js");
  const t0 = process.hrtime.bigint();
  const worker = spawn(process.execPath, [runtime], {
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
        return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: cpuOf(worker.pid), status };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    worker.kill();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One line per request: wall and worker CPU to the first answer, and the module-load share. */
export async function coldStartFigures(rounds = ROUNDS, dir = FUNCTIONS_DIR) {
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
  const cases = [
    ["findingsApi", "/v1/project", vessel.key, "GET /v1/project (findings key)"],
    [
      "companyApi",
      `/scim/v2/Users?filter=${filter}`,
      key,
      "SCIM GET /Users?filter (provisioning key)",
    ],
  ];
  const { main } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const lines = [
    `cold start on the Functions emulator (${main}): a fresh worker spawned to its first answer, medians of ${rounds}`,
  ];
  for (const [target, path, caseKey, label] of cases) {
    const runs = [];
    for (let i = 0; i < rounds; i++) runs.push(await coldStart(dir, target, path, caseKey));
    const load = moduleLoadFigure(target, rounds, dir);
    const cpu = median(runs.map((r) => r.cpu));
    lines.push(
      `  ${label.padEnd(42)} ${median(runs.map((r) => r.ms)).toFixed(0)} ms wall, worker CPU ${cpu} ms ` +
        `(status ${runs[0].status}); our module load ${load.toFixed(0)} ms CPU = ${((100 * load) / cpu).toFixed(0)}% of it`,
    );
  }
  return lines;
}

const loadAverage = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(", ")}`;

/** The module load and the cold start of this code, then of the code before the bundles. */
export async function coldStartSection(rounds = ROUNDS) {
  const now = [loadAverage(), ...moduleLoadFigures(rounds), ...(await coldStartFigures(rounds))];
  const before = await withCodeBefore(async (dir) => [
    loadAverage(),
    ...moduleLoadFigures(rounds, dir),
    ...(await coldStartFigures(rounds, dir)),
  ]);
  return [
    ...now,
    "",
    `Before the bundles (commit ${BEFORE}, built in a temporary worktree):`,
    ...before,
    loadAverage(),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? ROUNDS);
  const lines = process.argv[3]
    ? [loadAverage(), ...(await coldStartFigures(rounds, resolve(process.argv[3])))]
    : await coldStartSection(rounds);
  console.log(lines.join("\n"));
  process.exit(0);
}
