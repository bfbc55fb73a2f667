import { API_NAMES, inWords, type Api, type Expiry, type KeyView } from "./api";
import { companyName } from "./common";
import { confirmDialog } from "./dialogs";
import { announce, h, when } from "./dom";
import type { Rerender, Session } from "./session";

/**
 * The key page's changes (create, roll, revoke, the access switch): each runs, keeps its outcome
 * in words and the key to show once, and draws the page again, which shows both once.
 */

/** When a rolled key stops working: the choices of the roll dialog. */
const EXPIRIES: Array<[Expiry, string]> = [
  ["now", "Now (the old key stops at once)"],
  ["1h", "In 1 hour"],
  ["24h", "In 24 hours"],
  ["7d", "In 7 days"],
];

/** What survives a re-render: the key to show once, and the last outcome in words. */
let reveal: { key: string; heading: string } | null = null;
let outcome: { ok: boolean; text: string } | null = null;

/** Takes what the next drawing shows once. */
export function takeShown() {
  const shown = { reveal, outcome };
  reveal = null;
  outcome = null;
  return shown;
}

/** A key to show once, at the next drawing. */
export function showOnce(key: string, heading: string): void {
  reveal = { key, heading };
}

/** Runs a change, keeps its outcome in words and shows the page again. */
export async function change(rerender: Rerender, run: () => Promise<string>): Promise<void> {
  try {
    outcome = { ok: true, text: await run() };
  } catch (err) {
    outcome = { ok: false, text: inWords(err) };
  }
  await rerender();
}

export async function roll(session: Session, companyId: string, k: KeyView, rerender: Rerender) {
  const choices = EXPIRIES.map(([value, label], i) =>
    h(
      "p",
      { class: "check" },
      h("input", {
        type: "radio",
        name: "expiresIn",
        id: `expiry-${value}`,
        value,
        checked: i === 1,
        required: true,
      }),
      h("label", { for: `expiry-${value}` }, label),
    ),
  );
  const data = await confirmDialog({
    title: `Roll key ${k.prefix}?`,
    body: [
      h(
        "p",
        {},
        `A new key replaces “${k.name}”. Give it to the integration; the old key keeps ` +
          "working until the time you choose, then it is refused (401) like a revoked key.",
      ),
      h("fieldset", {}, h("legend", {}, "The old key stops working"), choices),
    ],
    confirm: "Roll key",
  });
  if (!data) return;
  await change(rerender, async () => {
    const rolled = await session.api.rollApiKey({
      companyId,
      prefix: k.prefix,
      expiresIn: data.get("expiresIn") as Expiry,
    });
    reveal = {
      key: rolled.key,
      heading: `New key ${rolled.prefix} (${rolled.name}), replacing ${k.prefix}`,
    };
    const until = when(rolled.rolled.expiresAt);
    return `Key ${k.prefix} rolled: it works until ${until}; the new key is ${rolled.prefix}.`;
  });
}

export async function revoke(session: Session, companyId: string, k: KeyView, rerender: Rerender) {
  const ok = await confirmDialog({
    title: `Revoke key ${k.prefix}?`,
    body: [
      h(
        "p",
        {},
        `“${k.name}” stops working at once: every request with it is refused (401). ` +
          "This cannot be undone.",
      ),
    ],
    confirm: "Revoke key",
    danger: true,
  });
  if (!ok) return;
  announce(`Revoking key ${k.prefix}…`);
  await change(rerender, async () => {
    await session.api.revokeApiKey({ companyId, prefix: k.prefix });
    return `Key ${k.prefix} revoked: it is refused from now on.`;
  });
}

/**
 * Switches the API on, or off after a confirmation that says what stops: every integration of
 * the company on this API, at once.
 */
export async function switchAccess(
  session: Session,
  companyId: string,
  which: Api,
  enabled: boolean,
  rerender: Rerender,
) {
  const api = API_NAMES[which].toLowerCase();
  if (enabled) {
    const ok = await confirmDialog({
      title: `Switch the ${api} off for ${companyName(session)}?`,
      body: [
        h(
          "p",
          {},
          `Every key of the ${api} stops working at once: each integration of this company ` +
            "that calls it is refused (403) until access is switched on again. " +
            "The keys themselves are kept.",
        ),
      ],
      confirm: "Switch off",
      danger: true,
    });
    if (!ok) return;
  }
  await change(rerender, async () => {
    await session.api.setApiAccess({ companyId, api: which, enabled: !enabled });
    return `API access to the ${api} is now ${enabled ? "off" : "on"}.`;
  });
}
