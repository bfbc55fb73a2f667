// Browser test of the console (../console-web): node scripts/consoleBrowserTest.mjs, after
// npm run build and the console's build (scripts/buildConsole.sh). Starts the README's local
// stack (emulators.mjs start: the demo data, the demo accounts, the console on the Hosting
// emulator), opens the console in Debian's headless Chromium and, as each demo account, does
// what an admin would: the Admin switches the findings API on, creates a key, sees it once,
// calls GET /v1/project with it, rolls it with a 1-hour expiry, revokes the new key, and finds
// every step in the audit trail and the usage figures; the owner (Key User) manages keys but
// cannot switch access; the plain user is refused in words; at 200 % zoom the key table's actions
// stay within reach. axe-core checks every page (no serious or critical violation), and Hosting's
// Content-Security-Policy must block nothing; each page is photographed into
// generated/console-screenshots/ (git-ignored). Closing line "console-browser: N passed, N
// failed"; with CONSOLE_REPORT=FILE also a jest-style JSON count (checkKit.mjs).
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureChromium, finish, launchChromium, watchCsp } from "./checkKit.mjs";
import { asAdmin, asOwner, asPlainUser, signInErrors, zoomed } from "./consoleFlows.mjs";
import { check, results, SHOTS, startStack } from "./consoleHarness.mjs";

ensureChromium("console-browser");
rmSync(SHOTS, { recursive: true, force: true });
mkdirSync(SHOTS, { recursive: true });
const stack = startStack();
let browser;
try {
  await stack.ready;
  browser = await launchChromium();
  const pageErrors = [];
  // Hosting serves firebase.json's Content-Security-Policy: whatever it blocks is a failure.
  const violations = [];
  // Each account in a browser of its own (nothing carried over, not even a failed step's session).
  for (const step of [signInErrors, asAdmin, asOwner, asPlainUser, zoomed]) {
    const context = await browser.newContext(
      step === zoomed
        ? { viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 }
        : { viewport: { width: 1280, height: 900 } },
    );
    // Generous: on a loaded machine a function's first call alone can take many seconds.
    context.setDefaultTimeout(120_000);
    const page = await context.newPage();
    page.on("pageerror", (err) => pageErrors.push(err.message));
    violations.push(await watchCsp(page));
    try {
      await step(page);
    } catch (err) {
      check(false, `${step.name}: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
      await page.screenshot({ path: join(SHOTS, `failed-${step.name}.png`), fullPage: true });
    }
    await context.close();
  }
  check(!pageErrors.length, `no script error on any page ${JSON.stringify(pageErrors)}`);
  const blocked = violations.flat();
  check(!blocked.length, `the CSP blocked nothing on any page ${JSON.stringify(blocked)}`);
} catch (err) {
  check(false, `console-browser: ${err instanceof Error ? err.message : err}`);
} finally {
  await browser?.close();
  await stack.stop();
}
console.log(`Screenshots: ${SHOTS}`);
finish("console-browser", "CONSOLE_REPORT", results());
