// Where a fresh instance's time goes, by package: one process per function, started as
// benchModuleLoad.mjs starts it (load the package's main with FUNCTION_TARGET, then the first
// call), under V8's sampling profiler (`node --cpu-prof`, which samples wall time: on a loaded
// machine read the shares, not the milliseconds). Self time is summed per package: a file under
// node_modules/ by its package, a line of a bundle by the comment esbuild writes above each
// module (`// node_modules/<package>/…`, `// lib/<dir>/…`), Node's own frames (require's reads
// and compiling) for the package that called them; "(bundle runtime)" is esbuild's module
// wrappers, where V8 counts compiling a bundled module at its first require. Compiling and file
// reads are also summed apart ("= …"). Prints the top packages of each function
// (docs/benchmarks.md, "Cold start").
//   node scripts/profileColdStart.mjs [FUNCTION…] [--keep DIR]   (after npm run build; default:
//   findingsApi, a callable and a trigger; --keep writes the .cpuprofile files to DIR)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CHILD, FIRST_CALL, instanceEnv, mainOf } from "./benchModuleLoad.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOP = 12;

/** For a bundle: the module each line belongs to, from esbuild's comments. */
function bundleModules(file) {
  const owners = [];
  let owner = "(bundle runtime)";
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^\/\/ (node_modules\/(?:.*\/node_modules\/)?((?:@[^/]+\/)?[^/]+)|lib\/[^/]+)/.exec(
      line,
    );
    if (m) owner = m[2] ?? m[1];
    owners.push(owner);
  }
  return owners;
}

function packageOf(callFrame, bundles) {
  const { url, functionName, lineNumber } = callFrame;
  if (!url) return functionName;
  if (url.startsWith("node:")) return "node:";
  const path = url.replace(/^file:\/\//, "");
  if (path.includes("/lib/bundle/") && !path.includes("/node_modules/")) {
    if (!bundles.has(path)) bundles.set(path, bundleModules(path));
    return bundles.get(path)[lineNumber] ?? "(bundle runtime)";
  }
  const m = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (m) return m[1];
  return path.replace(/^.*\/functions\//, "");
}

/**
 * Self time in ms per package of one .cpuprofile, largest first. Node's own frames (require's
 * file reads and compiling, a stream's internals) count for the package that called them, so a
 * module's loading is its requirer's; the compiling and file reads are also summed apart.
 */
function selfTimeByPackage(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const bundles = new Map();
  const sums = new Map();
  const add = (name, ms) => sums.set(name, (sums.get(name) ?? 0) + ms);
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byId.get(id).callFrame;
    if (/^(wrapSafe|compileFunction)$/.test(frame.functionName)) add("= compiling", ms);
    if (/^(readFileUtf8|readFileSync)$/.test(frame.functionName)) add("= reading files", ms);
    let node = byId.get(id);
    while (
      /^(node:|$)/.test(node.callFrame.url) &&
      parent.has(node.id) &&
      !/^\(/.test(node.callFrame.functionName)
    ) {
      node = byId.get(parent.get(node.id));
    }
    const own = node.callFrame.url ? node.callFrame : frame;
    add(own.url.startsWith("node:") ? "node:" : packageOf(own, bundles), ms);
  });
  return [...sums].sort((a, b) => b[1] - a[1]);
}

function profileOnce(dir, name, out) {
  execFileSync(
    process.execPath,
    [
      "--cpu-prof",
      `--cpu-prof-dir=${out}`,
      "--cpu-prof-interval=200",
      "-e",
      CHILD,
      JSON.stringify([mainOf(dir), name, FIRST_CALL[name]]),
    ],
    { cwd: dir, env: instanceEnv(name), stdio: "pipe" },
  );
  const file = readdirSync(out).find((f) => f.endsWith(".cpuprofile"));
  return JSON.parse(readFileSync(join(out, file), "utf8"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const keep = args.indexOf("--keep");
  const out = keep >= 0 ? resolve(args.splice(keep, 2)[1]) : mkdtempSync(join(tmpdir(), "prof-"));
  const names = args.length ? args : ["findingsApi", "createApiKey", "onFindingWritten"];
  for (const name of names) {
    const dirOut = join(out, name);
    const rows = selfTimeByPackage(profileOnce(FUNCTIONS_DIR, name, dirOut));
    const total = rows.reduce((sum, [pkg, ms]) => (pkg.startsWith("=") ? sum : sum + ms), 0);
    console.log(`${name}: ${total.toFixed(0)} ms sampled (load + first call)`);
    for (const [pkg, ms] of rows.slice(0, TOP)) {
      const share = `${((100 * ms) / total).toFixed(0)}%`.padStart(4);
      console.log(`  ${pkg.padEnd(36)} ${ms.toFixed(1).padStart(6)} ms ${share}`);
    }
  }
  if (keep < 0) rmSync(out, { recursive: true, force: true });
}
