// What each demo account does in the console (consoleBrowserTest.mjs runs these in order).
// The functions given to page.evaluate run in the page, where these are defined.
/* global document, innerWidth */
import { join } from "node:path";
import {
  check,
  CONSOLE,
  keyboard,
  PASSWORD,
  projectStatus,
  shoot,
  SHOTS,
} from "./consoleHarness.mjs";

async function signIn(page, email) {
  await page.goto(`${CONSOLE}#/findings`);
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

async function signOut(page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.locator("#email").waitFor();
}

const row = (page, prefix) => page.locator(`#keys tr[data-prefix="${prefix}"]`);

/** Reads the key shown once, checks the warning, and dismisses it. */
async function takeNewKey(page, name) {
  const field = page.locator("#new-key");
  await field.waitFor();
  const key = await field.inputValue();
  check(
    (await page.locator("#new-key-panel").innerText()).includes("cannot be shown again"),
    `${name}: the key is shown with the warning that it cannot be shown again`,
  );
  return key;
}

async function openDialog(page) {
  const dialog = page.locator("dialog[open]");
  await dialog.waitFor();
  return dialog;
}

export async function asAdmin(page) {
  await signIn(page, "admin@demo.example");
  await page.locator("#company").selectOption("demo-nordic-shipping");
  await page.getByRole("heading", { name: /Nordic Shipping AS/ }).waitFor();
  await shoot(page, "admin-findings");
  await keyboard(page, "admin-findings");

  // The demo company has the findings API on: off, then on again, as an Admin may. Off asks
  // first, saying what stops; cancelled, nothing changes.
  const access = page.locator("#access-switch");
  await access.click();
  let dialog = await openDialog(page);
  const warning = await dialog.innerText();
  check(
    warning.includes("stops working at once") && warning.includes("(403)"),
    `admin: switching access off asks first, saying what stops (${warning.slice(0, 80)}…)`,
  );
  await shoot(page, "admin-access-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  check(
    (await access.getAttribute("aria-checked")) === "true",
    "admin: a cancelled switch leaves the findings API on",
  );
  // The dialog starts on Cancel: Enter on the switch, then Enter again, switches nothing off.
  await access.focus();
  await page.keyboard.press("Enter");
  await openDialog(page);
  await page.keyboard.press("Enter");
  await page.locator("dialog").waitFor({ state: "detached" });
  check(
    (await access.getAttribute("aria-checked")) === "true",
    "admin: Enter twice on the switch leaves the findings API on (the dialog starts on Cancel)",
  );
  await access.click();
  dialog = await openDialog(page);
  await dialog.getByRole("button", { name: "Switch off" }).click();
  await page.locator('#access-switch[aria-checked="false"]').waitFor();
  await page.locator("#access-switch").click();
  await page.locator('#access-switch[aria-checked="true"]').waitFor();
  check(
    (await page.locator("#message").innerText()).includes("is now on"),
    "admin: the findings API is switched on, in words",
  );

  await page.locator("#key-name").fill("Browser test ERP");
  await page.locator("#key-vessel").selectOption("demo-vessel-a");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await takeNewKey(page, "admin: create");
  const prefix = key.slice(0, 12);
  await shoot(page, "admin-new-key");
  check((await projectStatus(key)) === 200, "admin: GET /v1/project with the new key → 200");
  await page.getByRole("button", { name: "I have stored the key" }).click();
  await page.reload();
  await row(page, prefix).waitFor();
  check(!(await page.content()).includes(key), "admin: the key is not shown a second time");

  await row(page, prefix).getByRole("button", { name: /^Roll/ }).click();
  const rollDialog = await openDialog(page);
  await rollDialog.getByLabel("In 1 hour").check();
  await shoot(page, "admin-roll-dialog");
  await rollDialog.getByRole("button", { name: "Roll key" }).click();
  const rolledKey = await takeNewKey(page, "admin: roll");
  const rolledPrefix = rolledKey.slice(0, 12);
  const statuses = [await projectStatus(key), await projectStatus(rolledKey)];
  check(statuses.join() === "200,200", `admin: after the roll both keys → 200 (${statuses})`);
  check(
    (await row(page, prefix).locator(".status").innerText()).startsWith("Rolled; works until"),
    "admin: the listing shows the rolled key's expiry",
  );

  await row(page, rolledPrefix)
    .getByRole("button", { name: /^Revoke/ })
    .click();
  await shoot(page, "admin-revoke-dialog");
  await (await openDialog(page)).getByRole("button", { name: "Revoke key" }).click();
  await page.getByText(`Key ${rolledPrefix} revoked`).waitFor();
  check((await projectStatus(rolledKey)) === 401, "admin: the revoked new key → 401 at once");
  check((await projectStatus(key)) === 200, "admin: the rolled old key still → 200");

  await page.reload();
  await row(page, prefix).waitFor();
  const today = await row(page, prefix).locator(".today").innerText();
  check(today === "3 of 10000", `admin: requests today against the daily quota (${today})`);
  await row(page, prefix)
    .getByRole("button", { name: /^Usage/ })
    .click();
  await page.locator("#usage-heading").waitFor();
  const usage = await page.locator("#usage").innerText();
  check(usage.includes("3 today"), "admin: the usage chart counts the key's requests");
  await shoot(page, "admin-usage");

  await page.goto(`${CONSOLE}#/audit`);
  await page.locator("#audit").waitFor();
  const actions = await page
    .locator("#audit tbody tr")
    .evaluateAll((rows) => rows.map((r) => `${r.dataset.action} ${r.innerText}`));
  for (const [action, about] of [
    ["api_access.changed", "Switched the findings export off"],
    ["api_access.changed", "Switched the findings export on"],
    ["api_key.created", prefix],
    ["api_key.rolled", `${prefix} of the findings export; key ${rolledPrefix} replaces it`],
    ["api_key.created", rolledPrefix],
    ["api_key.revoked", rolledPrefix],
    ["api.request", prefix],
  ])
    check(
      actions.some((a) => a.startsWith(action) && a.includes(about)),
      `admin: the audit trail shows ${action} (${about})`,
    );
  check(
    actions.some((a) => a.startsWith("api_key.revoked") && a.includes("admin@demo.example")),
    "admin: the audit trail names the Admin by the verified address",
  );
  await shoot(page, "admin-audit");
  await keyboard(page, "admin-audit");
  await page.locator("#audit-class").selectOption("privileged");
  await page
    .locator('#audit-class option[value="privileged"][selected]')
    .waitFor({ state: "attached" });
  const privileged = await page
    .locator("#audit tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.dataset.action));
  check(!privileged.includes("api.request"), "admin: the audit trail filters by class");
  await signOut(page);
}

export async function asOwner(page) {
  await signIn(page, "owner@demo.example");
  await page.getByRole("heading", { name: /Nordic Shipping AS/ }).waitFor();
  check(await page.locator("#access-switch").isDisabled(), "owner: cannot switch API access");
  check(
    (await page.locator("#access-note").innerText()).includes("Only a platform Admin"),
    "owner: is told who switches API access",
  );
  await page.locator("#key-name").fill("Owner's BI");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await takeNewKey(page, "owner: create");
  check((await projectStatus(key)) === 200, "owner: the new key → 200");
  await shoot(page, "owner-findings");
  const creators = await page.locator("#keys td.creator").allInnerTexts();
  check(
    creators.includes("admin@demo.example") && creators.includes("owner@demo.example (you)"),
    `owner: creators are named by address, not uid (${[...new Set(creators)]})`,
  );
  await row(page, key.slice(0, 12))
    .getByRole("button", { name: /^Revoke/ })
    .click();
  await (await openDialog(page)).getByRole("button", { name: "Revoke key" }).click();
  await page.getByText(`Key ${key.slice(0, 12)} revoked`).waitFor();
  check((await projectStatus(key)) === 401, "owner: the revoked key → 401");
  await page.goto(`${CONSOLE}#/company`);
  await page.getByRole("heading", { name: /Company API/ }).waitFor();
  await page.locator("#keys, #key-name").first().waitFor();
  await shoot(page, "owner-company");
  await signOut(page);
}

export async function asPlainUser(page) {
  await signIn(page, "user@demo.example");
  const refusal = page.getByRole("alert");
  await refusal.waitFor();
  const text = await refusal.innerText();
  check(
    text.includes("You cannot manage API keys") && text.includes("Ask your company's owner"),
    "plain user: refused in words, told whom to ask",
  );
  check(!(await page.content()).includes("permission-denied"), "plain user: no error code shown");
  check(!(await page.locator("#create-key").count()), "plain user: no key form");
  await shoot(page, "user-findings");
  await page.goto(`${CONSOLE}#/audit`);
  await page.getByText("You cannot read the audit trail").waitFor();
  await shoot(page, "user-audit");
  await signOut(page);
}

export async function signInErrors(page) {
  await page.goto(CONSOLE);
  await page.locator("#email").waitFor();
  await shoot(page, "sign-in");
  await keyboard(page, "sign-in");
  await page.locator("#email").fill("owner@demo.example");
  await page.locator("#password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  const error = await page.getByRole("alert").innerText();
  check(error.includes("password is not right"), `sign-in: a wrong password in words (${error})`);
}

/**
 * At 200 % zoom (half the CSS viewport at twice the pixels, set by the test's context): nothing
 * needs sideways scrolling, and a key's actions are within the viewport and work.
 */
export async function zoomed(page) {
  await signIn(page, "owner@demo.example");
  await page.locator("#key-name").fill("Zoomed");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await takeNewKey(page, "200 %: create");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  check(overflow <= 0, `200 %: the page needs no sideways scrolling (${overflow}px)`);
  const revoke = row(page, key.slice(0, 12)).getByRole("button", { name: /^Revoke/ });
  await revoke.scrollIntoViewIfNeeded();
  const box = await revoke.boundingBox();
  const width = await page.evaluate(() => innerWidth);
  check(
    !!box && box.x >= 0 && box.x + box.width <= width,
    `200 %: the revoke button is within the ${width}px viewport (${JSON.stringify(box)})`,
  );
  await page.screenshot({ path: join(SHOTS, "owner-findings-200-percent-row.png") });
  await shoot(page, "owner-findings-200-percent");
  await keyboard(page, "owner-findings-200-percent");
  await revoke.click();
  await (await openDialog(page)).getByRole("button", { name: "Revoke key" }).click();
  await page.getByText(`Key ${key.slice(0, 12)} revoked`).waitFor();
  check((await projectStatus(key)) === 401, "200 %: the key revoked there → 401");
}
