// What the check scripts share (docsBrowserTest.mjs, consoleBrowserTest.mjs, deployPackage.mjs,
// smoke.mjs): the tally of checks and its closing report, Debian's headless Chromium, and the
// watch for what a page's Content-Security-Policy blocked.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

/** Checks counted as they run; with `verbose`, each printed as it is made. */
export function tally({ verbose = false } = {}) {
  const failures = [];
  let passed = 0;
  const check = (ok, what) => {
    if (ok) passed++;
    else failures.push(what);
    if (verbose) console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
    return ok;
  };
  return { check, results: () => ({ passed, failures }) };
}

/**
 * The closing line `label: N passed, N failed` and each failure; with the environment variable
 * `reportVar` set, the counts as a jest-style JSON file for test.sh's closing sum. Exits.
 */
export function finish(label, reportVar, { passed, failures }) {
  console.log(`${label}: ${passed} passed, ${failures.length} failed`);
  for (const failure of failures) console.error(`  ✗ ${failure}`);
  if (process.env[reportVar])
    writeFileSync(
      process.env[reportVar],
      JSON.stringify({
        numPassedTests: passed,
        numFailedTests: failures.length,
        numPendingTests: 0,
        numTodoTests: 0,
      }),
    );
  process.exit(failures.length ? 1 : 0);
}

export const CHROMIUM = "/usr/bin/chromium";

/** Debian's Chromium (Playwright's own download needs the internet; apt-get, as root). */
export function ensureChromium(label) {
  if (existsSync(CHROMIUM)) return;
  console.log(`${label}: ${CHROMIUM} is missing; installing Debian's chromium with apt-get`);
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const run = spawnSync("apt-get", args, {
      encoding: "utf8",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (run.status !== 0) {
      const why = run.error?.message ?? `exit ${run.status}`;
      const output = `${run.stdout}${run.stderr}`.slice(-3000);
      console.error(`${label}: apt-get ${args.join(" ")} failed (${why}).\n${output}`);
      process.exit(1);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`${label}: apt-get installed chromium but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}

/** Headless Chromium with nothing of its own going on the network; `args` adds flags. */
export function launchChromium(args = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...args,
    ],
  });
}

/**
 * What the page's Content-Security-Policy blocks from now on, seen both as the event the page
 * gets and as the browser's console message (a worker's too); call before the page loads.
 */
export async function watchCsp(page) {
  const violations = [];
  const message = (where) => (msg) =>
    /Content Security Policy|Content-Security-Policy/i.test(msg.text()) &&
    violations.push(`${where}: ${msg.text().slice(0, 300)}`);
  page.on("console", message("page"));
  page.on("worker", (worker) => worker.on("console", message("worker")));
  await page.exposeFunction("__cspViolation", (v) => violations.push(`event: ${v}`));
  await page.addInitScript(() =>
    globalThis.addEventListener("securitypolicyviolation", (e) => {
      const where = `${e.sourceFile}:${e.lineNumber}`;
      globalThis.__cspViolation(
        `${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"} at ${where}`,
      );
    }),
  );
  return violations;
}
