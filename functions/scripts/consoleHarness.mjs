// The console browser test's harness (consoleBrowserTest.mjs): the README's stack in its own
// process group, the checks' tally (checkKit.mjs), and the checks every page gets (axe-core, the
// keyboard, a screenshot).
// The functions given to page.evaluate run in the page, where these are defined.
/* global document, window */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tally } from "./checkKit.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = resolve(FUNCTIONS_DIR, "..");
export const SHOTS = join(FUNCTIONS_DIR, "generated", "console-screenshots");
const AXE = readFileSync(
  join(ROOT, "console-web", "node_modules", "axe-core", "axe.min.js"),
  "utf8",
);
const { emulators } = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8"));
export const CONSOLE = `http://127.0.0.1:${emulators.hosting.port}/`;
const FUNCTIONS_PORT = Number(process.env.FUNCTIONS_EMULATOR_PORT ?? emulators.functions.port);
const FINDINGS = `http://127.0.0.1:${FUNCTIONS_PORT}/demo-safety-apis/europe-west1/findingsApi`;
export const PASSWORD = "demo-password";

export const { check, results } = tally({ verbose: true });

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
  // Evaluated through the DevTools protocol: a script tag would be an inline script, which the
  // console's Content-Security-Policy rightly refuses.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
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
