// Cold start per exported function: what a fresh instance spends loading code before it can
// answer (no emulator needed; a section of `npm run bench`). For each function, in a new Node
// process started as its instances are (FUNCTION_TARGET = the function, no emulator variables):
// the time to load the package's main (lib/bundle/index.js: the function's own bundle), then the
// time of its first call up to the point where it would reach Firestore: an API answers
// `GET /v1/project` without a key (401: its Express app built, the request pipeline run), a
// callable is called signed out (its handler loaded, `unauthenticated`), a Firestore trigger or
// the sign-in function is run with no event (its handler loaded, then it fails on the missing
// event). The first call then also loads what a real first request loads beyond that call and
// the code defers to first use: the Admin SDK's Firestore (every function's first real request
// reads or writes), and its Auth for a callable (a signed-in call) and the sign-in function (a
// blocking token): the deferred file where the code has one, else what older code loads there
// (the Firestore client, which its bundles leave external; the Auth package, which their stand-in
// requires), so no cost leaves the timed window by being deferred. The two scheduled
// jobs go straight to Firestore after loading their module: only their load is timed; a function
// the code does not export (older code) is listed as such. Printed in CPU time (steadier than the
// wall clock on a shared machine, printed beside), medians of ROUNDS processes, with the files
// loaded (CommonJS and ES modules, counted by a module hook).
//   node scripts/benchModuleLoad.mjs [ROUNDS] [DIR]   (after npm run build; DIR: another
//   checkout's functions/ directory, built, measured interleaved with this one to compare:
//   docs/benchmarks.md, "Cold start")
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./benchStats.mjs";
import { deferredFile } from "./bundleExternal.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = 5;

/** How each function's first call is made without Firestore (see above); null: not made. */
export const FIRST_CALL = {
  findingsApi: "request",
  companyApi: "request",
  setApiAccess: "call",
  createApiKey: "call",
  listApiKeys: "call",
  revokeApiKey: "call",
  rollApiKey: "call",
  apiKeyUsage: "call",
  listAuditTrail: "call",
  refreshKpiRollup: "call",
  esrsS1Report: "call",
  freezeEsrsS1Report: "call",
  departmentRematch: "event",
  roleRematch: "event",
  onFindingWritten: "event",
  onFindingCommentWritten: "event",
  onFindingFileWritten: "event",
  onIncidentWritten: "event",
  rosterSignIn: "event",
  kpiRollupDaily: null,
  accountIntentSweep: null,
  groupRoleSweep: null,
};

/** The child process: loads the main as an instance does, then makes the first call. */
export const CHILD = `
const http = require("node:http");
const { existsSync } = require("node:fs");
const { dirname, join } = require("node:path");
let files = 0;
require("node:module").registerHooks?.({
  load(url, context, next) {
    if (url.startsWith("file:")) files++;
    return next(url, context);
  },
});
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const cpu = (c) => { const d = process.cpuUsage(c); return (d.user + d.system) / 1e3; };
const [main, name, kind, deferredFiles] = JSON.parse(process.argv[1]);
function request(fn) {
  return new Promise((done) => {
    const server = http.createServer(fn).listen(0, "127.0.0.1", () => {
      http.get({ port: server.address().port, path: "/v1/project" }, (res) => {
        res.resume();
        res.on("end", () => server.close(() => done(res.statusCode)));
      });
    });
  });
}
(async () => {
  let t = process.hrtime.bigint();
  let c = process.cpuUsage();
  const fn = require("./" + main)[name];
  if (!fn) return console.log(JSON.stringify({ missing: true }));
  const index = ms(t);
  const indexCpu = cpu(c);
  const indexModules = files;
  t = process.hrtime.bigint();
  c = process.cpuUsage();
  let outcome = null;
  if (kind === "request") outcome = await request(fn);
  else if (kind === "call") outcome = await fn.run({ data: {} }).then(() => "answered", (e) => e.code);
  else if (kind === "event") outcome = await fn.run(undefined).then(() => "done", (e) => e.name);
  const deferred = (mod, otherwise) => {
    const file = join(dirname(main), deferredFiles[mod]);
    require(existsSync(file) ? "./" + file : otherwise);
  };
  if (kind) deferred("firebase-admin/firestore", "@google-cloud/firestore");
  if (kind === "call" || name === "rosterSignIn") deferred("firebase-admin/auth", "firebase-admin/auth");
  const own = ms(t);
  const ownCpu = cpu(c);
  console.log(JSON.stringify({ index, own, indexCpu, ownCpu, indexModules, modules: files, outcome }));
})();
`;

/** The environment of a deployed instance of `name`: its function named, no emulator variables. */
export function instanceEnv(name) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !/^(FIRESTORE_EMULATOR_HOST|FIREBASE_AUTH_EMULATOR_HOST|FUNCTIONS_EMULATOR)$/.test(k),
    ),
  );
  return { ...env, FUNCTION_TARGET: name };
}

/** The deferred files a first call ends by loading, where the code has them. */
const DEFERRED_FILES = Object.fromEntries(
  ["firebase-admin/firestore", "firebase-admin/auth"].map((mod) => [mod, deferredFile(mod)]),
);

function measureOnce(dir, main, name) {
  const out = execFileSync(
    process.execPath,
    ["-e", CHILD, JSON.stringify([main, name, FIRST_CALL[name], DEFERRED_FILES])],
    // The first calls' log lines (a 401 is logged) are not the bench's output.
    { cwd: dir, env: instanceEnv(name), encoding: "utf8", stdio: "pipe" },
  );
  return JSON.parse(out.trim().split("\n").pop());
}

export const mainOf = (dir) => JSON.parse(readFileSync(resolve(dir, "package.json"), "utf8")).main;

/**
 * The order of round `i`'s ways (indexes 0…count-1) when they alternate (A B, B A, A B…) and
 * `lead` shifts which way goes first, so that no way draws a quieter minute than another.
 */
export const alternating = (i, lead, count) => {
  const order = [...Array(count).keys()];
  return (i + lead) % 2 ? order.reverse() : order;
};

/**
 * One function's runs in each of `dirs`, the directories alternating process by process, which
 * leads first alternating from function to function.
 */
function interleavedRuns(name, lead, rounds, dirs) {
  const runs = dirs.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const d of alternating(i, lead, dirs.length))
      runs[d].push(measureOnce(dirs[d], mainOf(dirs[d]), name));
  }
  return runs;
}

/** A function's line: load, first call and their sum, CPU then wall, files and the outcome. */
function figureLine(name, runs) {
  if (runs[0].missing) return `  ${name.padEnd(23)} not in this code`;
  const figure = (pick) => median(runs.map(pick)).toFixed(0).padStart(4);
  const load = median(runs.map((r) => r.indexCpu));
  const target = name.endsWith("Api") ? 250 : 150;
  const { indexModules, modules, outcome } = runs[0];
  return (
    `  ${name.padEnd(23)} ${figure((r) => r.indexCpu)} + ${figure((r) => r.ownCpu)} = ${figure((r) => r.indexCpu + r.ownCpu)} ms ` +
    `[${figure((r) => r.index)} + ${figure((r) => r.own)} = ${figure((r) => r.index + r.own)}]  ${indexModules} + ${modules - indexModules} files` +
    `${outcome === null ? ", first call not timed" : ` (first call: ${outcome})`}: load ${load <= target ? "ok" : "MISSED"}`
  );
}

/**
 * One line per function: load, then its first call, and the sum, in CPU time (wall clock in
 * brackets), the modules loaded, and what the first call answered. The issue's targets are for
 * the load; the first call and the sum stand beside it, so that no cost hides in the first call.
 * One list of lines per directory of `dirs`, measured interleaved.
 */
export function moduleLoadFigures(rounds = ROUNDS, dirs = [FUNCTIONS_DIR]) {
  const lines = dirs.map((dir) => [
    `module load per function (${mainOf(dir)}; a fresh process per function with FUNCTION_TARGET, medians of ${rounds}; CPU ms, wall ms in brackets): load + first call = total (target, on the load: APIs <= 250, the others <= 150)`,
  ]);
  for (const [lead, name] of Object.keys(FIRST_CALL).entries()) {
    const runs = interleavedRuns(name, lead, rounds, dirs);
    runs.forEach((ofDir, d) => lines[d].push(figureLine(name, ofDir)));
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? ROUNDS);
  const dirs = process.argv[3] ? [FUNCTIONS_DIR, resolve(process.argv[3])] : [FUNCTIONS_DIR];
  const tables = moduleLoadFigures(rounds, dirs).map((lines, d) => [`${dirs[d]}:`, ...lines]);
  console.log(tables.map((lines) => lines.join("\n")).join("\n\n"));
}
