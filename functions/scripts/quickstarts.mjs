// The quickstarts of ../examples and the generated API-tool collections, run against the local
// stack on the demo data (emulators.mjs start: the demo seed, the Firestore triggers that feed
// the delta endpoints), the way an integrator runs them (examples/README.md):
//   npm ci in examples/; types and collections generated from the served documents; tsc
//   TypeScript and Python quickstarts: a first copy that stops at the day's quota and resumes
//   "the next day", removals through the delta, a resync after 410 and after 400
//   newman over both collections
// Each step is one test in the report (QUICKSTARTS_REPORT, read by summarize.mjs). The stack is
// this step's own, so what the quickstarts change (worked hours, hidden findings) is seen by no
// other test.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { demoStore, mutateDemo, stampToken } from "./quickstarts/demo.mjs";
import { operator, runExample, sh, startStack } from "./quickstarts/run.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const EXAMPLES = resolve(FUNCTIONS_DIR, "..", "examples");
const PORT = process.env.FUNCTIONS_EMULATOR_PORT ?? 5001;
const BASE = `http://127.0.0.1:${PORT}/demo-safety-apis/europe-west1`;
const WORK = mkdtempSync(join(tmpdir(), "quickstarts-"));
const limits = (...args) => operator(FUNCTIONS_DIR, "limits", ...args);

const results = { passed: 0, failures: [] };
function check(name, ok, detail) {
  if (ok) results.passed++;
  else results.failures.push(`${name}: ${detail ?? ""}`.slice(0, 600));
  console.log(`${ok ? "✓" : "✗"} ${name}`);
}

async function checks() {
  const keys = (await import(join(FUNCTIONS_DIR, "lib", "tools", "demo", "keys.js"))).DEMO_KEYS;
  const [vessel, read, provisioning] = keys.map((k) => k.key);
  const env = {
    FINDINGS_API_URL: `${BASE}/findingsApi`,
    FINDINGS_API_KEY: vessel,
    COMPANY_API_URL: `${BASE}/companyApi`,
    COMPANY_READ_KEY: read,
    COMPANY_PROVISIONING_KEY: provisioning,
    // The demo stack signs links with a throwaway key: they download nothing (examples/README.md).
    DOWNLOAD_MODE: "links",
  };
  const generated = sh("npm", ["run", "--silent", "generate"], {
    cwd: EXAMPLES,
    env: { ...process.env, ...env },
  });
  check(
    "types and collections generated from the served documents",
    generated.ok,
    generated.output,
  );
  const tsc = sh("npx", ["tsc", "-p", "tsconfig.json"], { cwd: EXAMPLES });
  check("the TypeScript quickstarts type-check against the generated types", tsc.ok, tsc.output);
  if (!generated.ok) return;

  const dirs = { ts: join(WORK, "ts"), py: join(WORK, "py") };
  const run = (lang, job, extra = {}) =>
    runExample(EXAMPLES, lang, job, {
      ...process.env,
      ...env,
      QUICKSTART_DIR: dirs[lang],
      ...extra,
    });

  // The day's quota: enough for the first copy's pages and a few files, as if the key had spent
  // the rest today; the minute limit raised so the test does not wait for minutes.
  limits("--scope", "read", "--per-minute", "6000");
  limits("--scope", "provisioning", "--per-minute", "6000");
  limits("--prefix", vessel.slice(0, 12), "--per-minute", "6000", "--per-day", "40");
  const first = run("ts", "findings", { DAY_RESERVE: "0" });
  check(
    "TypeScript findings, first copy: stops at the day's quota with files left",
    first.ok &&
      first.summary?.mode === "full copy" &&
      first.summary.findings === 300 &&
      first.summary.downloaded > 0 &&
      first.summary.stoppedForQuota &&
      first.summary.left > 0,
    first.output,
  );
  limits("--prefix", vessel.slice(0, 12), "--per-minute", "6000", "--per-day", "10000");
  const resumed = run("ts", "findings");
  check(
    "TypeScript findings, the next day: a delta, the files left downloaded",
    resumed.ok &&
      resumed.summary?.mode === "delta" &&
      resumed.summary.downloaded === first.summary?.left &&
      !resumed.summary.stoppedForQuota,
    resumed.output,
  );
  const python = run("py", "findings");
  check(
    "Python findings, first copy: every file",
    python.ok && python.summary?.mode === "full copy" && python.summary.left === 0,
    python.output,
  );
  const ts = demoStore(join(dirs.ts, "findings.sqlite"));
  const py = demoStore(join(dirs.py, "findings.sqlite"));
  check(
    "both copies hold the same findings, comments and attachments under the same keys",
    ts.keys() === py.keys() && ts.count("findings") === 300 && ts.pendingFiles() === 0,
    `${ts.summary()} / ${py.summary()}`,
  );
  // Worked hours are pushed only when both are set (examples/README.md): a month of the past.
  const worked = { WORKED_MONTH: "2025-10", WORKED_HOURS: "12480.5" };
  for (const lang of ["ts", "py"]) {
    const company = run(lang, "company", worked);
    check(
      `${lang === "ts" ? "TypeScript" : "Python"} company: incidents, ESRS CSV, worked hours`,
      company.ok &&
        company.summary?.incidents.mode === "full copy" &&
        company.summary.incidents.held > 0 &&
        company.summary.esrs.datapoints === 20 &&
        existsSync(join(dirs[lang], `esrs-s1-14-${company.summary.esrs.year}.csv`)) &&
        company.summary.worked_hours.month === worked.WORKED_MONTH &&
        company.summary.worked_hours.hours === 12480.5 &&
        [200, 201].includes(company.summary.worked_hours.status),
      company.output,
    );
  }

  // The nightly delta after changes in the app: a finding hidden, one deleted, one edited; an
  // incident hidden. The triggers write the change records the delta reads.
  const changed = await mutateDemo(
    { findings: env.FINDINGS_API_URL, company: env.COMPANY_API_URL },
    { vessel, read },
    { findings: ts, company: demoStore(join(dirs.ts, "company.sqlite")) },
  );
  for (const lang of ["ts", "py"]) {
    const name = lang === "ts" ? "TypeScript" : "Python";
    const nightly = run(lang, "findings");
    const copy = demoStore(join(dirs[lang], "findings.sqlite"));
    check(
      `${name} findings, nightly delta: removals applied, the edit upserted`,
      nightly.ok &&
        nightly.summary?.mode === "delta" &&
        nightly.summary.removals === 2 &&
        nightly.summary.changed >= 1 &&
        copy.count("findings") === 298 &&
        !copy.holds(changed.hidden) &&
        copy.title(changed.edited) === changed.title,
      nightly.output,
    );
    const company = run(lang, "company");
    check(
      `${name} company, nightly delta: the hidden incident removed`,
      company.ok &&
        company.summary?.incidents.mode === "delta" &&
        company.summary.incidents.removals === 1,
      company.output,
    );
  }

  // A stored delta token the API no longer takes: older than 30 days (410), or damaged in
  // storage (400). Both start over with a full copy.
  const stale = [
    ["ts", "findings", "410"],
    ["py", "findings", "400"],
    ["ts", "company", "400"],
    ["py", "company", "410"],
  ];
  for (const [lang, job, status] of stale) {
    const file = join(dirs[lang], `${job}.sqlite`);
    stampToken(file, job, status === "410");
    const again = run(lang, job);
    const mode = job === "findings" ? again.summary?.mode : again.summary?.incidents.mode;
    check(
      `${lang} ${job}: a stored token answered ${status} is a full copy again`,
      again.ok && mode === `resync after ${status}`,
      again.output,
    );
  }

  for (const [api, key] of [
    ["findings", vessel],
    ["company", provisioning],
  ]) {
    const report = join(WORK, `${api}.newman.json`);
    const newman = sh(
      "npx",
      [
        "newman",
        "run",
        `generated/${api}.postman_collection.json`,
        "--env-var",
        `key=${key}`,
        "--reporters",
        "cli,json",
        "--reporter-json-export",
        report,
        "--disable-unicode",
      ],
      { cwd: EXAMPLES },
    );
    const stats = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")).run.stats : null;
    check(
      `newman: the ${api} collection (${stats?.requests.total} requests, ` +
        `${stats?.assertions.total} assertions)`,
      newman.ok && stats?.assertions.failed === 0 && stats.requests.total > 0,
      newman.output.slice(-2000),
    );
  }
}

async function main() {
  const install = sh("npm", ["ci", "--no-audit", "--no-fund"], { cwd: EXAMPLES });
  check("npm ci in examples/", install.ok, install.output);
  if (install.ok) {
    let stack;
    try {
      stack = await startStack(FUNCTIONS_DIR, join(WORK, "stack.log"));
      process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${process.env.FIRESTORE_PORT ?? 8080}`;
      await checks();
    } catch (error) {
      check("quickstarts against the local stack", false, error?.stack ?? String(error));
    } finally {
      await stack?.stop();
    }
  }
  console.log(`quickstarts: ${results.passed} passed, ${results.failures.length} failed`);
  for (const failure of results.failures) console.error(`  ✗ ${failure}`);
  if (process.env.QUICKSTARTS_REPORT)
    writeFileSync(
      process.env.QUICKSTARTS_REPORT,
      JSON.stringify({
        numPassedTests: results.passed,
        numFailedTests: results.failures.length,
        numPendingTests: 0,
        numTodoTests: 0,
      }),
    );
  process.exit(results.failures.length ? 1 : 0);
}

await main();
