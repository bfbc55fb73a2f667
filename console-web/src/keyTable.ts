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
    return h(
      "tr",
      { "data-prefix": k.prefix },
      h("th", { scope: "row" }, k.name),
      h("td", {}, h("code", {}, k.prefix)),
      h("td", {}, k.scopes.join(", ")),
      h("td", {}, k.projectId ? (vessels.get(k.projectId) ?? k.projectId) : "—"),
      h("td", {}, k.createdBy === session.uid ? "you" : k.createdBy),
      h("td", {}, when(k.createdAt, "—")),
      h("td", {}, when(k.lastUsedAt)),
      h("td", { class: "today" }, today === null ? "—" : `${today} of ${quota ?? "?"}`),
      h("td", { class: "status" }, statusOf(k)),
      h("td", {}, actions),
    );
  });
  const cols = [
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
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { id: "keys" },
      h("caption", { class: "visually-hidden" }, "Keys of this API, newest first"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          cols.map((c) => h("th", { scope: "col" }, c)),
        ),
      ),
      h("tbody", {}, rows),
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
