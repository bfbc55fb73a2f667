import { isObject } from "../lib/isObject";
import { CONTROL_REFUSED, hasControlOrFormat, tidyDirectoryText } from "../lib/visibleText";
import type { Filter } from "./filter";
import { propertyOf } from "./patchOp";
import type { AttributeDef } from "./routeKit";
import { invalidValue } from "./scimErrors";
import { subAttributeOf } from "./userSchema";

/**
 * The values of a User attribute as a request sends them, read into what the state holds: a
 * value of the attribute's type, a multi-valued attribute's items (at most MAX_VALUES, one of
 * them primary), and the value that counts among them.
 */
export const MAX_VALUES = 100;
/** One value of a multi-valued or complex attribute, as sent. */
export type Item = Record<string, unknown>;

/**
 * A text value of the request: tidied as a directory's accidents need (lib/visibleText), then
 * within its limit and with no control or format character (the rule of /v1). A value equal to
 * `kept`, the stored one, is taken as it is: a resource stored before a rule still takes every
 * other change (a deactivation above all).
 */
export function checkedText(
  value: string | null,
  attribute: string,
  max: number,
  kept?: string | null,
) {
  if (value === null || value === kept) return value;
  const tidy = tidyDirectoryText(value);
  if (tidy === kept) return tidy;
  if (tidy.length > max) throw invalidValue(`"${attribute}" is longer than ${max} characters.`);
  if (hasControlOrFormat(tidy)) throw invalidValue(`"${attribute}" ${CONTROL_REFUSED}.`);
  return tidy;
}

/** The value as the attribute's type; "True"/"False" strings as booleans; null clears. */
export function coerce(def: AttributeDef, value: unknown, name: string): unknown {
  if (value === null) return null;
  if (def.type === "boolean") {
    if (typeof value === "boolean") return value;
    if (typeof value === "string" && /^(true|false)$/i.test(value))
      return value.toLowerCase() === "true";
    throw invalidValue(`Attribute "${name}" must be true or false.`);
  }
  if (typeof value !== "string") throw invalidValue(`Attribute "${name}" must be a string.`);
  return value;
}

/** Entra ID's app role as a JSON string: `{"id":…,"value":"Manager","displayName":"Manager"}`. */
function embeddedRole(def: AttributeDef, value: unknown): Record<string, unknown> | null {
  if (def.name !== "roles" || typeof value !== "string" || !value.trim().startsWith("{"))
    return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!isObject(parsed) || typeof propertyOf(parsed, "value") !== "string") return null;
    const display = propertyOf(parsed, "displayName");
    return {
      value: propertyOf(parsed, "value"),
      ...(typeof display === "string" ? { display } : {}),
    };
  } catch {
    return null;
  }
}

export function toItem(def: AttributeDef, value: unknown): Item {
  const embedded =
    embeddedRole(def, value) ??
    (isObject(value) ? embeddedRole(def, propertyOf(value, "value")) : null);
  if (embedded) return toItem(def, isObject(value) ? { ...value, ...embedded } : embedded);
  if (typeof value === "string") return { value };
  if (!isObject(value)) throw invalidValue(`Each value of "${def.name}" must be an object.`);
  const item: Item = {};
  for (const [key, v] of Object.entries(value)) {
    const sub = subAttributeOf(def, key);
    if (sub) item[sub.name] = coerce(sub, v, `${def.name}.${sub.name}`);
  }
  return item;
}

export const tooMany = (def: AttributeDef) =>
  invalidValue(`"${def.name}" may hold at most ${MAX_VALUES} values.`);

export function toItems(def: AttributeDef, value: unknown): Item[] {
  if (value === null) return [];
  const values = Array.isArray(value) ? value : [value];
  if (values.length > MAX_VALUES) throw tooMany(def);
  return values.map((v) => toItem(def, v));
}

/** A value's key for equality (strings case-insensitively), so matching is one map lookup. */
export const keyOf = (v: unknown) =>
  typeof v === "string" ? `s:${v.toLowerCase()}` : JSON.stringify(v ?? null);

/** The equalities a value filter states (`type eq "work"`), for a value `add` creates. */
export function equalitiesOf(filter: Filter, def: AttributeDef): Item {
  if (filter.kind === "and")
    return { ...equalitiesOf(filter.left, def), ...equalitiesOf(filter.right, def) };
  if (filter.kind !== "compare" || filter.op !== "eq") return {};
  const sub = subAttributeOf(def, filter.path.attr);
  return sub ? { [sub.name]: coerce(sub, filter.value, `${def.name}.${sub.name}`) } : {};
}

/** The value that counts: the primary one, else the first typed `work`, else the first. */
export const primaryOf = (items: Item[]): Item | undefined =>
  items.find((i) => i.primary === true) ??
  items.find((i) => typeof i.type === "string" && i.type.toLowerCase() === "work") ??
  items[0];

/** At most one value is primary: the last one marked so. */
export function onePrimary(items: Item[]): Item[] {
  const last = items.map((i) => i.primary === true).lastIndexOf(true);
  return items.map((item, index) =>
    item.primary === true && index !== last ? { ...item, primary: false } : item,
  );
}
