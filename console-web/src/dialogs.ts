import { h, type Child } from "./dom";

/**
 * A modal confirmation (the native <dialog>: focus moves into it, Escape cancels, focus returns
 * to the button that opened it). Resolves with the form's data when confirmed, null otherwise.
 */
export function confirmDialog(options: {
  title: string;
  body: Child[];
  confirm: string;
  danger?: boolean;
}): Promise<FormData | null> {
  const opener = document.activeElement as HTMLElement | null;
  const titleId = `dialog-title-${Date.now()}`;
  return new Promise((resolve) => {
    const form = h(
      "form",
      { method: "dialog" },
      h("h2", { id: titleId }, options.title),
      ...options.body,
      h(
        "div",
        { class: "row" },
        h(
          "button",
          { type: "submit", value: "confirm", class: options.danger ? "danger" : null },
          options.confirm,
        ),
        h(
          "button",
          { type: "submit", value: "cancel", class: "secondary", formnovalidate: true },
          "Cancel",
        ),
      ),
    );
    const dialog = h("dialog", { "aria-labelledby": titleId }, form);
    dialog.addEventListener("close", () => {
      const data = dialog.returnValue === "confirm" ? new FormData(form) : null;
      dialog.remove();
      opener?.focus();
      resolve(data);
    });
    document.body.append(dialog);
    dialog.showModal();
    // A destructive dialog starts on Cancel: Enter pressed twice (or held) must not confirm it.
    if (options.danger) form.querySelector<HTMLButtonElement>('button[value="cancel"]')?.focus();
  });
}
