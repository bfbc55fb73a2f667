import { collection, doc, getDoc, getDocs, query, where } from "firebase/firestore/lite";
import { API_NAMES, inWords, isRefusal, type Api, type KeyView } from "./api";
import { companyName, companyPicker, refusal } from "./common";
import { fill, h } from "./dom";
import { change, showOnce, switchAccess, takeShown } from "./keyChanges";
import { keyTable, works } from "./keyTable";
import { newKeyPanel } from "./newKey";
import type { Rerender, Session } from "./session";

/** A company holds at most this many active keys per API (docs/api-behaviour.md). */
const MAX_ACTIVE_KEYS = 20;
const ACCESS_FIELD: Record<Api, string> = { findings: "findingsExport", company: "companyApi" };
export async function keysPage(
  main: HTMLElement,
  session: Session,
  which: Api,
  rerender: Rerender,
) {
  const { db } = session.services;
  const companyId = session.companyId;
  const title = h("h1", {}, `${API_NAMES[which]}${companyId ? ` · ${companyName(session)}` : ""}`);
  if (!companyId) return fill(main, title, refusal(session, "manage API keys"));
  const [company, projects, listing] = await Promise.all([
    getDoc(doc(db, "companies", companyId)).catch(() => null),
    which === "findings"
      ? getDocs(query(collection(db, "projects"), where("companyId", "==", companyId))).catch(
          () => null,
        )
      : null,
    session.api.listApiKeys({ companyId, api: which }).then(
      (r) => ({ keys: r.keys, error: null }),
      (error: unknown) => ({ keys: [] as KeyView[], error }),
    ),
  ]);
  const vessels = new Map<string, string>();
  projects?.forEach((p) => {
    if (p.get("deleted") !== true) vessels.set(p.id, String(p.get("name") ?? p.id));
  });
  const { reveal: revealed, outcome: shown } = takeShown();
  const message = h(
    "div",
    { id: "message" },
    shown &&
      h(
        "p",
        {
          class: shown.ok ? "success" : "error",
          role: shown.ok ? "status" : "alert",
          tabindex: "-1",
        },
        shown.text,
      ),
  );
  const enabled = company?.get(`apiAccess.${ACCESS_FIELD[which]}`) === true;
  const access = h(
    "section",
    { "aria-labelledby": "access-heading" },
    h("h2", { id: "access-heading" }, "API access"),
    h(
      "div",
      { class: "row" },
      h("span", { id: "access-label" }, `${API_NAMES[which]} for ${companyName(session)}`),
      h(
        "button",
        {
          type: "button",
          id: "access-switch",
          role: "switch",
          class: "switch",
          "aria-checked": String(enabled),
          "aria-labelledby": "access-label",
          "aria-describedby": session.admin ? null : "access-note",
          disabled: !session.admin,
          onclick: () => void switchAccess(session, companyId, which, enabled, rerender),
        },
        enabled ? "On" : "Off",
      ),
    ),
    session.admin
      ? h(
          "p",
          { class: "note" },
          "Turning access off refuses every key of this API at once (403); " +
            "turning it on lets them work again.",
        )
      : h(
          "p",
          { id: "access-note", class: "note" },
          "Only a platform Admin can switch API access on or off. " +
            "Ask your platform administrator.",
        ),
  );
  const parts: Array<HTMLElement | null> = [
    companyPicker(session, rerender),
    title,
    message,
    access,
  ];
  if (listing.error) {
    parts.push(
      h(
        "section",
        { "aria-labelledby": "keys-heading" },
        h("h2", { id: "keys-heading" }, "Keys"),
        isRefusal(listing.error)
          ? refusal(session, "manage API keys")
          : h("p", { class: "error", role: "alert" }, inWords(listing.error)),
      ),
    );
    return fill(main, parts);
  }
  const keys = listing.keys;
  const active = keys.filter(works).length;
  parts.push(
    h(
      "section",
      { "aria-labelledby": "keys-heading" },
      h("h2", { id: "keys-heading", tabindex: "-1" }, "Keys"),
      revealed &&
        newKeyPanel(revealed.key, revealed.heading, () => {
          document.getElementById("new-key-panel")?.remove();
          // The button that had focus is gone: keep the keyboard user where the panel was.
          document.getElementById("keys-heading")?.focus();
        }),
      h(
        "p",
        { id: "key-count", class: active >= MAX_ACTIVE_KEYS - 2 ? "warning" : "note" },
        `${active} of ${MAX_ACTIVE_KEYS} active keys in use.`,
        active >= MAX_ACTIVE_KEYS
          ? " The limit is reached: revoke a key before creating another."
          : "",
      ),
      createForm(session, which, companyId, vessels, active >= MAX_ACTIVE_KEYS, rerender),
      keyTable(session, companyId, keys, vessels, rerender),
      h("section", { id: "usage", "aria-live": "polite" }),
    ),
  );
  fill(main, parts);
  // The control that was used is gone with the re-render: focus goes to what it led to.
  if (revealed) document.getElementById("new-key-panel")?.focus();
  else if (shown) message.querySelector("p")?.focus();
}

function createForm(
  session: Session,
  which: Api,
  companyId: string,
  vessels: Map<string, string>,
  full: boolean,
  rerender: Rerender,
): HTMLElement {
  const name = h("input", {
    id: "key-name",
    type: "text",
    name: "name",
    required: true,
    maxlength: 100,
  });
  const vessel = h(
    "select",
    { id: "key-vessel", name: "vessel", required: true },
    [...vessels].map(([id, label]) => h("option", { value: id }, label)),
  );
  const provisioning = h("input", {
    id: "key-provisioning",
    type: "checkbox",
    name: "provisioning",
  });
  return h(
    "form",
    {
      "aria-labelledby": "create-heading",
      onsubmit: (event: Event) => {
        event.preventDefault();
        void change(rerender, async () => {
          const created = await session.api.createApiKey({
            companyId,
            api: which,
            name: name.value,
            ...(which === "findings"
              ? { projectId: vessel.value }
              : { scopes: provisioning.checked ? ["read", "provisioning"] : ["read"] }),
          });
          showOnce(created.key, `New key ${created.prefix} (${created.name})`);
          return `Key ${created.prefix} created.`;
        });
      },
    },
    h("h3", { id: "create-heading" }, "Create a key"),
    h("label", { for: "key-name" }, "Name (what uses the key, e.g. “ERP export”)"),
    name,
    which === "findings"
      ? [h("label", { for: "key-vessel" }, "Vessel"), vessel]
      : h(
          "fieldset",
          {},
          h("legend", {}, "Scopes"),
          h(
            "p",
            { class: "check" },
            h("input", { id: "key-read", type: "checkbox", checked: true, disabled: true }),
            h("label", { for: "key-read" }, "read (always)"),
          ),
          h(
            "p",
            { class: "check" },
            provisioning,
            h("label", { for: "key-provisioning" }, "provisioning (users and SCIM)"),
          ),
        ),
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", id: "create-key", disabled: full }, "Create key"),
    ),
  );
}
