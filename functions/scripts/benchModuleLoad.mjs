// Cold start per exported function: what a fresh process spends loading code before it can
// answer (no emulator needed; the last section of `npm run bench`). For each function, in a new
// Node process: the time to require lib/index.js (what every instance pays, and what the deploy
// tooling loads), then the time to first load that function's own module graph, as its first
// call does (for an API, its Express app built), and the modules loaded in all. Medians of ROUNDS
// processes. On a commit whose index.ts imports everything eagerly, the second figure is ~0 and
// the first holds it all: run it on both commits to compare (docs/benchmarks.md, "Cold start").
//   node scripts/benchModuleLoad.mjs      (after npm run build)
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = 5;

/** What each function's first call loads (mirrors src/index.ts). */
export const FUNCTION_MODULES = {
  findingsApi: ["findings/app", "createFindingsApp"],
  companyApi: ["company/app", "createCompanyApp"],
  setApiAccess: ["console/setApiAccess"],
  createApiKey: ["console/createApiKey"],
  listApiKeys: ["console/listApiKeys"],
  revokeApiKey: ["console/revokeApiKey"],
  refreshKpiRollup: ["console/refreshKpiRollup"],
  esrsS1Report: ["console/esrsS1Report"],
  kpiRollupDaily: ["services/rollupJob"],
  accountIntentSweep: ["services/users/accountSync"],
  rosterSignIn: ["services/users/commit"],
  onFindingWritten: ["services/changes"],
  onFindingCommentWritten: ["services/changes"],
  onFindingFileWritten: ["services/changes"],
  onIncidentWritten: ["services/changes"],
};

const child = `
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const cpu = (c) => { const d = process.cpuUsage(c); return (d.user + d.system) / 1e3; };
const [mod, factory] = JSON.parse(process.argv[1]);
let t = process.hrtime.bigint();
let c = process.cpuUsage();
require("./lib/index.js");
const index = ms(t);
const indexCpu = cpu(c);
const indexModules = Object.keys(require.cache).length;
t = process.hrtime.bigint();
c = process.cpuUsage();
const m = require("./lib/" + mod + ".js");
if (factory) m[factory]();
const own = ms(t);
const ownCpu = cpu(c);
console.log(JSON.stringify({ index, own, indexCpu, ownCpu, indexModules, modules: Object.keys(require.cache).length }));
`;

function measureOnce(name) {
  // As the deployed container starts: no emulator variables.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !/^(FIRESTORE_EMULATOR_HOST|FIREBASE_AUTH_EMULATOR_HOST|FUNCTIONS_EMULATOR)$/.test(k),
    ),
  );
  const out = execFileSync(
    process.execPath,
    ["-e", child, JSON.stringify(FUNCTION_MODULES[name])],
    { cwd: FUNCTIONS_DIR, env, encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").pop());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * One line per function: require lib/index.js, then its own graph, and the sum, in CPU time
 * (steadier than the wall clock on a shared machine, printed beside), and the modules loaded.
 */
export function moduleLoadFigures(rounds = ROUNDS) {
  const lines = [
    `module load per function (fresh process, medians of ${rounds}; CPU ms, wall ms in brackets): lib/index.js + the function's own graph = total`,
  ];
  for (const name of Object.keys(FUNCTION_MODULES)) {
    const runs = Array.from({ length: rounds }, () => measureOnce(name));
    const figure = (pick) => median(runs.map(pick)).toFixed(0).padStart(4);
    const { indexModules, modules } = runs[0];
    lines.push(
      `  ${name.padEnd(17)} ${figure((r) => r.indexCpu)} + ${figure((r) => r.ownCpu)} = ${figure((r) => r.indexCpu + r.ownCpu)} ms ` +
        `[${figure((r) => r.index)} + ${figure((r) => r.own)} = ${figure((r) => r.index + r.own)}]  ${indexModules} modules, ${modules} after its first call`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? ROUNDS);
  console.log(moduleLoadFigures(rounds).join("\n"));
}
