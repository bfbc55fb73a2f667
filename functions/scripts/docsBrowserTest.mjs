// Browser test of the reference pages: node scripts/docsBrowserTest.mjs (after npm run build).
// Debian's headless Chromium opens GET /v1/docs of each API as the app serves it, and checks that
// every operation of that API's OpenAPI document is listed, and that the page fetched nothing
// from anywhere but this machine. Closing line "docs-browser: N passed, N failed"; with
// DOCS_REPORT=FILE also a jest-style JSON count, as smoke.mjs writes for SMOKE_REPORT.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const require = createRequire(import.meta.url);
const { FINDINGS_API } = require("../lib/findings/app.js");
const { COMPANY_API } = require("../lib/company/app.js");
const { createApp } = require("../lib/http/createApp.js");

// Playwright's own browser download needs the internet; Debian's package comes through apt.
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log(`docs-browser: ${CHROMIUM} is missing; installing Debian's chromium with apt-get (as root)`);
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const run = spawnSync("apt-get", args, { encoding: "utf8", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (run.status !== 0) {
      console.error(`docs-browser: apt-get ${args.join(" ")} failed (${run.error?.message ?? `exit ${run.status}`}); cannot run the browser test.\n${`${run.stdout}${run.stderr}`.slice(-3000)}`);
      process.exit(1);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`docs-browser: apt-get installed chromium but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}

/** Loopback only. data: and blob: URLs never leave the page. */
function isLocal(url) {
  const { protocol, hostname } = new URL(url);
  if (["data:", "blob:", "about:"].includes(protocol)) return true;
  return ["127.0.0.1", "localhost", "[::1]"].includes(hostname) || hostname.endsWith(".localhost");
}

const failures = [];
let passed = 0;
const check = (ok, what) => (ok ? passed++ : failures.push(what));

ensureChromium();
const profile = mkdtempSync(join(tmpdir(), "docs-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    // No name resolves but loopback ones, so nothing leaves this machine even where there is a
    // network; an attempt still shows up as a request below.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1",
  ],
});
// Chromium asks every host for a favicon; the app would answer 401 and log it.
await browser.route("**/favicon.ico", (route) => route.fulfill({ status: 204 }));
try {
  for (const [name, config] of [["findings", FINDINGS_API], ["company", COMPANY_API]]) {
    const server = createApp(config).listen(0, "127.0.0.1");
    await new Promise((done) => server.once("listening", done));
    const { port } = server.address();
    const openapi = await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).json();
    const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ what: `${m.toUpperCase()} ${path}`, label: item[m].summary ?? item[m].operationId, tag: item[m].tags?.[0] })),
    );

    const page = await browser.newPage();
    const external = [];
    const errors = [];
    page.on("request", (req) => isLocal(req.url()) || external.push(req.url().slice(0, 150)));
    page.on("pageerror", (err) => errors.push(err.message.slice(0, 300)));
    // Fake timers (time still flows) so delayed beacons such as telemetry batches can be fired
    // at once below instead of waited for.
    await page.clock.install();
    // A *.localhost name, not 127.0.0.1: Redoc mutes its telemetry on loopback addresses, and the
    // test must see what a reader's browser on a real host would do.
    let broken = "";
    try {
      const res = await page.goto(`http://${name}.localhost:${port}/v1/docs`, { timeout: 30_000 });
      if (res?.status() !== 200) throw new Error(`GET /v1/docs answered ${res?.status()}: ${(await res?.text())?.slice(0, 200)}`);
      // The HTML is prerendered; React taking over the container means the inlined bundle ran.
      const root = await page.waitForSelector("#redoc", { state: "attached" });
      await page.waitForFunction((el) => Object.keys(el).some((k) => k.startsWith("__reactContainer$")), root, { timeout: 30_000 });
    } catch (err) {
      broken = err.message.split("\n")[0];
    }

    const menu = page.locator('[data-testid="menu-item-label"]');
    for (const op of operations) {
      if (broken) {
        check(false, `${name}: ${op.what} — page did not render: ${broken}`);
        continue;
      }
      // The sidebar lists an operation under its first tag, once that section is opened.
      const item = menu.getByText(op.label, { exact: true }).first();
      const listed = await (async () => {
        if (await item.isVisible()) return true;
        if (op.tag) await page.locator('[data-component-name="Menu/MenuItem"].menu-item-type-group > a').filter({ has: page.getByText(op.tag, { exact: true }) }).first().click({ timeout: 5_000 });
        return item.waitFor({ state: "visible", timeout: 5_000 }).then(() => true);
      })().catch(() => false);
      check(listed, `${name}: ${op.what} ("${op.label}") is not listed in the page's menu`);
    }

    await page.clock.runFor(30_000).catch(() => undefined);
    await page.waitForTimeout(500); // let requests started by those timers be reported
    check(external.length === 0, `${name}: the page requested ${external.length} URL(s) off this machine:\n      ${external.join("\n      ")}`);
    if (errors.length) console.log(`docs-browser: ${name}: script errors in the page:\n  ${errors.join("\n  ")}`);
    await page.close();
    server.close();
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}

console.log(`docs-browser: ${passed} passed, ${failures.length} failed`);
if (process.env.DOCS_REPORT) writeFileSync(process.env.DOCS_REPORT, JSON.stringify({ numPassedTests: passed, numFailedTests: failures.length, numPendingTests: 0, numTodoTests: 0 }));
for (const failure of failures) console.error(`  ✗ ${failure}`);
process.exit(failures.length ? 1 : 0);
