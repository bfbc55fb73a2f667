import { announce, h } from "./dom";

/** A new key, shown once: a read-only field, a copy button, and the warning. */
export function newKeyPanel(key: string, heading: string, onDone: () => void): HTMLElement {
  const field = h("input", {
    id: "new-key",
    type: "text",
    class: "secret",
    readonly: true,
    value: key,
  });
  const copied = h("span", { "aria-live": "polite" });
  const copy = h(
    "button",
    {
      type: "button",
      onclick: () => {
        field.select();
        const done = () => (copied.textContent = "Copied.");
        navigator.clipboard?.writeText(key).then(done, () => {
          document.execCommand("copy");
          done();
        });
      },
    },
    "Copy key",
  );
  const panel = h(
    "section",
    { class: "panel", "aria-labelledby": "new-key-heading", tabindex: "-1", id: "new-key-panel" },
    h("h3", { id: "new-key-heading" }, heading),
    h(
      "p",
      { class: "warning" },
      h("strong", {}, "Copy this key now: it cannot be shown again."),
      " Only its first 12 characters are kept; " +
        "if it is lost, roll or revoke it and create another.",
    ),
    h("label", { for: "new-key" }, "The new key"),
    h("div", { class: "row" }, field, copy, copied),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "secondary", onclick: onDone }, "I have stored the key"),
    ),
  );
  announce(`${heading}. Copy it now: it cannot be shown again.`);
  return panel;
}
