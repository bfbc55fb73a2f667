import { inWords, type KeyView } from "./api";
import { fill, h, when } from "./dom";
import { revoke, roll } from "./keyChanges";
import type { Rerender, Session } from "./session";
import { usageChart } from "./usageChart";

/** The key list: one row per key, its figures and state, and what may be done with it. */
export const expired = (k: KeyView) => !!k.expiresAt && Date.parse(k.expiresAt) <= Date.now();
export const works = (k: KeyView) => !k.revokedAt && !expired(k);

function statusOf(k: KeyView): string {
  if (k.revokedAt) return `Revoked ${when(k.revokedAt)}`;
  if (k.expiresAt) return `${expired(k) ? "Expired" : "Rolled; works until"} ${when(k.expiresAt)}`;
  return "Active";
}

const COLS = [
  "Name",
  "Prefix",
  "Scopes",
  "Vessel",
  "Created by",
  "Created",
  "Last used",
  "Requests today / daily quota",
  "Status",
  "Actions",
];

export function keyTable(
  session: Session,
  companyId: string,
  keys: KeyView[],
  vessels: Map<string, string>,
  rerender: Rerender,
): HTMLElement {
  if (!keys.length) return h("p", { class: "note" }, "No keys yet.");
  const hidden = (text: string) => h("span", { class: "visually-hidden" }, text);
  const rows = keys.map((k) => {
    const actions = h("div", { class: "row" });
    actions.append(
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: () => void showUsage(session, companyId, k),
        },
        "Usage",
        hidden(` of key ${k.prefix}`),
      ),
    );
    if (works(k) && !k.expiresAt)
      actions.append(
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: () => void roll(session, companyId, k, rerender),
          },
          "Roll",
          hidden(` key ${k.prefix}`),
        ),
      );
    if (!k.revokedAt)
      actions.append(
        h(
          "button",
          {
            type: "button",
            class: "danger",
            onclick: () => void revoke(session, companyId, k, rerender),
          },
          "Revoke",
          hidden(` key ${k.prefix}`),
        ),
      );
    const quota = k.rateLimits?.perDay;
    const today = k.requestsToday ?? null;
    const creator = k.createdByName ?? k.createdBy;
    const cell = (label: string, cls: string | null, ...content: Array<Node | string>) =>
      h("td", { role: "cell", "data-label": label, class: cls }, ...content);
    return h(
      "tr",
      { role: "row", "data-prefix": k.prefix },
      h("th", { role: "rowheader", scope: "row" }, k.name),
      cell(COLS[1], null, h("code", {}, k.prefix)),
      cell(COLS[2], null, k.scopes.join(", ")),
      cell(COLS[3], null, k.projectId ? (vessels.get(k.projectId) ?? k.projectId) : "—"),
      cell(COLS[4], "creator", k.createdBy === session.uid ? `${creator} (you)` : creator),
      cell(COLS[5], null, when(k.createdAt, "—")),
      cell(COLS[6], null, when(k.lastUsedAt)),
      cell(COLS[7], "today", today === null ? "—" : `${today} of ${quota ?? "?"}`),
      cell(COLS[8], "status", statusOf(k)),
      cell(COLS[9], "actions", actions),
    );
  });
  // Explicit roles: on a narrow screen (200 % zoom) the rows are stacked as cards (style.css),
  // and a table laid out as blocks keeps its meaning for screen readers only through them.
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { id: "keys", role: "table", "aria-label": "Keys of this API, newest first" },
      h(
        "thead",
        { role: "rowgroup" },
        h(
          "tr",
          { role: "row" },
          COLS.map((c) => h("th", { role: "columnheader", scope: "col" }, c)),
        ),
      ),
      h("tbody", { role: "rowgroup" }, rows),
    ),
  );
}

async function showUsage(session: Session, companyId: string, k: KeyView) {
  const usage = document.getElementById("usage")!;
  fill(usage, h("p", {}, `Loading the usage of key ${k.prefix}…`));
  try {
    const { days } = await session.api.apiKeyUsage({ companyId, prefix: k.prefix });
    fill(
      usage,
      h("h3", { id: "usage-heading", tabindex: "-1" }, `Usage of key ${k.prefix} (${k.name})`),
      usageChart(k.prefix, days),
    );
    document.getElementById("usage-heading")?.focus();
  } catch (err) {
    fill(usage, h("p", { class: "error", role: "alert" }, inWords(err)));
  }
}
