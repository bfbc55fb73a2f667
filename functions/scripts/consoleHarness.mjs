// The console browser test's harness (consoleBrowserTest.mjs): Debian's Chromium, the README's
// stack in its own process group, the checks' tally, and the checks every page gets (axe-core,
// the keyboard, a screenshot).
// The functions given to page.evaluate run in the page, where these are defined.
/* global document, window */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = resolve(FUNCTIONS_DIR, "..");
export const SHOTS = join(FUNCTIONS_DIR, "generated", "console-screenshots");
export const CHROMIUM = "/usr/bin/chromium";
const AXE = readFileSync(
  join(ROOT, "console-web", "node_modules", "axe-core", "axe.min.js"),
  "utf8",
);
const { emulators } = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8"));
export const CONSOLE = `http://127.0.0.1:${emulators.hosting.port}/`;
const FUNCTIONS_PORT = Number(process.env.FUNCTIONS_EMULATOR_PORT ?? emulators.functions.port);
const FINDINGS = `http://127.0.0.1:${FUNCTIONS_PORT}/demo-safety-apis/europe-west1/findingsApi`;
export const PASSWORD = "demo-password";

// Playwright's own browser download needs the internet; Debian's package comes through apt.
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log(`console-browser: ${CHROMIUM} is missing; installing Debian's chromium (as root)`);
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const run = spawnSync("apt-get", args, {
      encoding: "utf8",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (run.status !== 0) {
      console.error(
        `console-browser: apt-get ${args.join(" ")} failed.\n${run.stderr.slice(-3000)}`,
      );
      process.exit(1);
    }
  }
}

const failures = [];
let passed = 0;
/** The tally so far. */
export const results = () => ({ passed, failures });
export const check = (ok, what) => {
  if (ok) passed++;
  else failures.push(what);
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

/** The README's stack, in its own process group; resolves once it printed its banner. */
export function startStack() {
  const log = join(SHOTS, "stack.log");
  const child = spawn(
    process.execPath,
    [join(FUNCTIONS_DIR, "scripts", "emulators.mjs"), "start"],
    {
      cwd: FUNCTIONS_DIR,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const ready = new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the stack did not start in 5 min; see ${log}`)),
      300_000,
    );
    const onData = (chunk) => {
      output += chunk;
      writeFileSync(log, output);
      if (output.includes("Local stack ready")) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => fail(new Error(`the stack stopped (exit ${code}); see ${log}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.on("exit", r));
    process.kill(-child.pid, "SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  };
  return { ready, stop };
}

export const projectStatus = async (key) =>
  (await fetch(`${FINDINGS}/v1/project`, { headers: { Authorization: `Bearer ${key}` } })).status;

/** axe-core on the page as it is now: no serious or critical violation. */
async function axe(page, name) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  check(
    !bad.length,
    `${name}: axe-core finds no serious or critical violation ${JSON.stringify(bad)}`,
  );
}

export async function shoot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  await axe(page, name);
}

/** Every enabled control is reached by Tab, in the page's order. */
export async function keyboard(page, name) {
  const total = await page.evaluate(() => {
    document
      .querySelectorAll("[data-tab-seen]")
      .forEach((el) => el.removeAttribute("data-tab-seen"));
    const controls =
      "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), summary";
    return [...document.querySelectorAll(controls)].filter((el) => el.getClientRects().length)
      .length;
  });
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < total + 5; i++) {
    await page.keyboard.press("Tab");
    await page.evaluate(() => document.activeElement?.setAttribute("data-tab-seen", ""));
  }
  const missed = await page.evaluate(() => {
    const controls =
      "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), summary";
    return [...document.querySelectorAll(controls)]
      .filter((el) => el.getClientRects().length && !el.hasAttribute("data-tab-seen"))
      .map((el) => el.outerHTML.slice(0, 80));
  });
  check(
    !missed.length,
    `${name}: every control is reached by the keyboard ${JSON.stringify(missed)}`,
  );
}
