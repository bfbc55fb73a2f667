import { inWords, isRefusal } from "./api";
import { companyName, companyPicker, refusal } from "./common";
import { fill, h, when } from "./dom";
import type { Rerender, Session } from "./session";

const CLASSES: Array<[string, string]> = [
  ["", "All entries"],
  ["privileged", "Changes (keys, access, provisioning)"],
  ["operational", "API requests (reads)"],
];
const PAGE_SIZE = 25;

/**
 * Where the audit page is: the company it belongs to, its filter, the tokens of the pages before
 * the current one, and the control to focus once the page is drawn again (the one used is
 * replaced). Another company starts again at its newest entries.
 */
const state = {
  companyId: undefined as string | undefined,
  class: "",
  tokens: [] as string[],
  token: undefined as string | undefined,
  focus: null as string | null,
};

export async function auditPage(main: HTMLElement, session: Session, rerender: Rerender) {
  const companyId = session.companyId;
  const title = h("h1", {}, `Audit trail${companyId ? ` · ${companyName(session)}` : ""}`);
  if (!companyId) return fill(main, title, refusal(session, "read the audit trail"));
  if (state.companyId !== companyId)
    Object.assign(state, { companyId, tokens: [], token: undefined });
  let page;
  try {
    page = await session.api.listAuditTrail({
      companyId,
      ...(state.class ? { class: state.class } : {}),
      ...(state.token ? { pageToken: state.token } : {}),
      limit: PAGE_SIZE,
    });
  } catch (err) {
    return fill(
      main,
      companyPicker(session, rerender),
      title,
      isRefusal(err)
        ? refusal(session, "read the audit trail")
        : h("p", { class: "error", role: "alert" }, inWords(err)),
    );
  }
  const filter = h(
    "select",
    {
      id: "audit-class",
      onchange: (event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        Object.assign(state, { class: value, tokens: [], token: undefined, focus: "audit-class" });
        void rerender();
      },
    },
    CLASSES.map(([value, label]) => h("option", { value, selected: value === state.class }, label)),
  );
  const rows = page.entries.map((e) =>
    h(
      "tr",
      { "data-action": e.action },
      h("td", {}, when(e.at, "—")),
      h("td", {}, e.who),
      h("td", {}, e.what),
      h("td", {}, e.result),
    ),
  );
  const next = page.nextPageToken;
  const pageNumber = state.tokens.length + 1;
  fill(
    main,
    companyPicker(session, rerender),
    title,
    h(
      "p",
      {},
      "Who did what, when, and with which result: key and access changes are kept 2 years, " +
        "API requests 90 days. Newest first.",
    ),
    h("div", { class: "row" }, h("label", { for: "audit-class" }, "Show"), filter),
    rows.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { id: "audit" },
            h("caption", { class: "visually-hidden" }, `Audit trail, page ${pageNumber}`),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["When", "Who", "What", "Result"].map((c) => h("th", { scope: "col" }, c)),
              ),
            ),
            h("tbody", {}, rows),
          ),
        )
      : h("p", { class: "note" }, "No entries."),
    h(
      "nav",
      { "aria-label": "Audit trail pages", class: "row" },
      h(
        "button",
        {
          type: "button",
          id: "audit-newer",
          class: "secondary",
          disabled: !state.token,
          onclick: () => {
            state.token = state.tokens.pop() || undefined;
            state.focus = "audit-newer";
            void rerender();
          },
        },
        "Newer entries",
      ),
      h("span", {}, `Page ${pageNumber}`),
      h(
        "button",
        {
          type: "button",
          id: "audit-older",
          class: "secondary",
          disabled: !next,
          onclick: () => {
            state.tokens.push(state.token ?? "");
            state.token = next ?? undefined;
            state.focus = "audit-older";
            void rerender();
          },
        },
        "Older entries",
      ),
    ),
  );
  const focus = state.focus && document.getElementById(state.focus);
  state.focus = null;
  if (focus instanceof HTMLButtonElement && focus.disabled) main.focus();
  else if (focus) focus.focus();
}
