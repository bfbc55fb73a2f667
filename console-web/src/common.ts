import { WHO_MANAGES_KEYS } from "./api";
import { h } from "./dom";
import type { Rerender, Session } from "./session";

/** The company the page shows: a choice for an Admin, the user's own company otherwise. */
export function companyPicker(session: Session, rerender: Rerender): HTMLElement | null {
  if (!session.admin) return null;
  const select = h(
    "select",
    {
      id: "company",
      onchange: (event: Event) => {
        session.companyId = (event.target as HTMLSelectElement).value;
        sessionStorage.setItem("companyId", session.companyId);
        // The page is drawn again: focus returns to the (new) picker.
        void rerender().then(() => document.getElementById("company")?.focus());
      },
    },
    session.companies.map((c) =>
      h("option", { value: c.id, selected: c.id === session.companyId }, `${c.name} (${c.id})`),
    ),
  );
  return h("div", { class: "row" }, h("label", { for: "company" }, "Company"), select);
}

const WHO_READS_AUDIT =
  "The audit trail is read by your company's owner, the company's Key Users and platform Admins.";

/** Why this person cannot manage keys (or read the audit trail), and whom to ask. */
export function refusal(session: Session, what: "manage API keys" | "read the audit trail") {
  const role = session.role ? ` (role: ${session.role}${session.keyUser ? ", Key User" : ""})` : "";
  return h(
    "div",
    { class: "error", role: "alert" },
    h("p", {}, `You cannot ${what} with this account: ${session.name}${role}.`),
    h("p", {}, what === "manage API keys" ? WHO_MANAGES_KEYS : WHO_READS_AUDIT),
    h(
      "p",
      {},
      what === "manage API keys"
        ? "Ask your company's owner to create the key for you, or to ask the platform " +
          "administrator to give the owner the Key User role."
        : "Ask your company's owner if you need to know who used the APIs.",
    ),
  );
}

export const companyName = (session: Session) =>
  session.companies.find((c) => c.id === session.companyId)?.name ?? session.companyId ?? "";
