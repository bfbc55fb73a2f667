/** A tiny element builder: h("button", { type: "button", onclick }, "Save"). */
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Child | Child[]>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.replace(/^on/, ""), value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** Replaces the children of `el`. */
export function fill(el: Element, ...children: Array<Child | Child[]>): void {
  el.replaceChildren(...children.flat().filter((c): c is Node | string => !!c));
}

/** Announces a short message to screen readers (the page's polite live region). */
export function announce(text: string): void {
  const status = document.getElementById("status");
  if (status) status.textContent = text;
}

/** A date and time as the reader's locale writes it; "never" when absent. */
export function when(iso: string | null | undefined, never = "never"): string {
  if (!iso) return never;
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

let ids = 0;
/** A unique element id, for labels and descriptions. */
export const uid = (base: string) => `${base}-${++ids}`;
