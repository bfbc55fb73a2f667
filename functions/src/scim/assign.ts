import { isObject } from "../lib/isObject";
import { parsePath, type AttrPath } from "./filter";
import { assertSchemaList, attrPathOf, matches, operationsOf, type Op } from "./patchOp";
import { COMMON_READ_ONLY, URN, type AttributeDef } from "./routeKit";
import { invalidSyntax, invalidValue, ScimError } from "./scimErrors";
import { attributeOf, ENTERPRISE_ATTRIBUTES, subAttributeOf } from "./userSchema";
import {
  coerce,
  equalitiesOf,
  keyOf,
  MAX_VALUES,
  onePrimary,
  toItem,
  toItems,
  tooMany,
  type Item,
} from "./values";

/**
 * Attribute assignment for the User resource, as pure functions over a plain state (attribute
 * name → value): a PATCH's operations (RFC 7644 §3.5.2, applied in order to a copy of the state,
 * all or none), a POST or PUT body (assigned the way a path-less `replace` is, so the three read
 * attributes alike) and a stored profile (profile.ts). Where RFC 7644 leaves room, the choices
 * are in docs/scim-connector.md ("What the service decides"); work is bounded by MAX_OPERATIONS
 * and MAX_VALUES; the values themselves are read by values.ts.
 */
export type State = Record<string, unknown>;
const label = (path: AttrPath) => `${path.attr}${path.sub ? `.${path.sub}` : ""}`;

function applyMulti(
  state: State,
  op: Op,
  def: AttributeDef,
  path: AttrPath,
  value: unknown,
  explicit: boolean,
): void {
  // In a body (or a path-less PATCH value) the attribute is an array, as its schema says: an
  // object there (`"emails": {}`) would be stored as one empty value, the address dropped.
  if (!explicit && !path.valueFilter && !path.sub && value !== null && !Array.isArray(value))
    throw invalidValue(`"${def.name}" must be an array of values.`);
  let items = [...((state[def.name] as Item[] | undefined) ?? [])].map((i) => ({ ...i }));
  const sub = path.sub ? subAttributeOf(def, path.sub) : undefined;
  if (path.sub && !sub) return; // a sub-attribute no schema here defines: ignored
  const setOn = (item: Item) =>
    sub
      ? { ...item, [sub.name]: op === "remove" ? null : coerce(sub, value, label(path)) }
      : { ...item, ...toItem(def, value) };
  if (path.valueFilter) {
    const filter = path.valueFilter;
    const matched = new Set(items.filter((i) => matches(filter, i)));
    if (op === "remove")
      items = sub
        ? items.map((i) => (matched.has(i) ? setOn(i) : i))
        : items.filter((i) => !matched.has(i));
    else if (matched.size) items = items.map((i) => (matched.has(i) ? setOn(i) : i));
    else if (op === "add") items.push(setOn(equalitiesOf(filter, def)));
    else
      throw new ScimError(
        "invalid_request",
        `No value of "${def.name}" matches the filter of path "${label(path)}[…]".`,
        "noTarget",
      );
  } else if (sub) {
    items = items.length || op === "remove" ? items.map(setOn) : [setOn({})];
  } else if (op === "replace") {
    items = toItems(def, value);
  } else if (op === "add") {
    const at = new Map(items.map((item, index) => [keyOf(item.value), index]));
    for (const added of toItems(def, value)) {
      const existing = added.value === undefined ? undefined : at.get(keyOf(added.value));
      if (existing !== undefined) items[existing] = { ...items[existing], ...added };
      else at.set(keyOf(added.value), items.push(added) - 1);
    }
  } else {
    const gone =
      value === undefined || value === null
        ? null
        : new Set(toItems(def, value).map((i) => keyOf(i.value)));
    items = gone ? items.filter((i) => !gone.has(keyOf(i.value))) : [];
  }
  if (items.length > MAX_VALUES) throw tooMany(def);
  state[def.name] = onePrimary(items);
}

function applyComplex(
  state: State,
  op: Op,
  def: AttributeDef,
  path: AttrPath,
  value: unknown,
): void {
  if (path.valueFilter)
    throw new ScimError(
      "invalid_request",
      `"${def.name}" is not multi-valued: it takes no value filter.`,
      "invalidPath",
    );
  const current = { ...((state[def.name] as Item | null) ?? {}) };
  if (path.sub) {
    const sub = subAttributeOf(def, path.sub);
    if (sub) current[sub.name] = op === "remove" ? null : coerce(sub, value, label(path));
  } else if (op === "remove" || value === null) {
    for (const sub of def.subAttributes ?? []) current[sub.name] = null;
  } else {
    // Entra ID sends the enterprise `manager` as the manager's id alone: `"value": "2819c223…"`.
    const item = typeof value === "string" && subAttributeOf(def, "value") ? { value } : value;
    if (!isObject(item)) throw invalidValue(`Attribute "${def.name}" must be an object.`);
    Object.assign(current, toItem(def, item));
  }
  state[def.name] = current;
}

/**
 * One operation on one attribute path; `explicit`: the path was the operation's own (not a key
 * of its value); `touched` collects the names of the attributes a request assigned.
 */
export function applyAt(
  state: State,
  op: Op,
  path: AttrPath,
  value: unknown,
  explicit: boolean,
  touched?: Set<string>,
): void {
  const found = attributeOf(path.uri, path.attr);
  const readOnly = found
    ? found.def.mutability === "readOnly"
    : COMMON_READ_ONLY.includes(path.attr.toLowerCase());
  if (readOnly) {
    if (explicit)
      throw new ScimError(
        "invalid_request",
        `Attribute "${path.attr}" is read-only.`,
        "mutability",
      );
    return;
  }
  if (!found) return; // not an attribute of this service's schemas: ignored
  const { def } = found;
  touched?.add(def.name);
  if (op !== "remove" && value === undefined)
    throw invalidValue(`The "${op}" operation on "${label(path)}" needs a "value".`);
  if (def.multiValued) return applyMulti(state, op, def, path, value, explicit);
  if (def.type === "complex") return applyComplex(state, op, def, path, value);
  if (path.sub || path.valueFilter)
    throw new ScimError("invalid_request", `"${def.name}" has no sub-attributes.`, "invalidPath");
  state[def.name] = op === "remove" ? null : coerce(def, value, def.name);
}

function parsedOrNull(text: string): AttrPath | null {
  try {
    return parsePath(text);
  } catch {
    return null;
  }
}

const SCHEMA_URNS = [URN.user, URN.enterprise].map((u) => u.toLowerCase());

/**
 * A path-less add/replace, or a POST/PUT body: each key is an attribute path, or a schema URN
 * holding attributes.
 */
export function assign(
  state: State,
  op: "add" | "replace",
  value: Record<string, unknown>,
  uri?: string,
  touched?: Set<string>,
): void {
  for (const [key, v] of Object.entries(value)) {
    if (!uri && SCHEMA_URNS.includes(key.toLowerCase())) {
      if (!isObject(v)) throw invalidValue(`"${key}" must be an object of attributes.`);
      assign(state, op, v, key, touched);
    } else {
      // A key that is no attribute path (`@odata.type`, `2fa`) names no attribute here: ignored.
      const path = key.includes("[")
        ? attrPathOf(uri ? `${uri}:${key}` : key)
        : parsedOrNull(uri ? `${uri}:${key}` : key);
      if (path) applyAt(state, op, path, v, false, touched);
    }
  }
}

/**
 * The state a POST or PUT body describes: everything it leaves out is unassigned; `roles` and
 * `department` left out stay undefined, so a replace can tell "not sent" from "sent empty".
 */
export function stateFromBody(body: unknown, sent?: Set<string>): State {
  if (!isObject(body)) throw invalidSyntax("The body must be a User resource (a JSON object).");
  assertSchemaList(body);
  const state: State = { name: {}, emails: [] };
  assign(state, "replace", body, undefined, sent);
  return state;
}

/** The enterprise extension's URN alone as the path (scim2-tester, some providers). */
const isExtension = (path: AttrPath) =>
  path.uri !== undefined &&
  !path.sub &&
  !path.valueFilter &&
  `${path.uri}:${path.attr}`.toLowerCase() === URN.enterprise.toLowerCase();

/** An operation whose path is the enterprise extension's URN: on each of its attributes. */
function applyToExtension(
  state: State,
  op: Op,
  value: unknown,
  index: number,
  touched?: Set<string>,
): void {
  if (op === "remove") {
    for (const def of ENTERPRISE_ATTRIBUTES)
      applyAt(state, op, { uri: URN.enterprise, attr: def.name }, undefined, true, touched);
    return;
  }
  if (!isObject(value))
    throw invalidValue(
      `Operations[${index}].value must be an object of the extension's attributes.`,
    );
  assign(state, op, value, URN.enterprise, touched);
}

/** Applies a PatchOp request body; `touched` collects the names of the attributes it assigned. */
export function applyPatch(before: State, body: unknown, touched?: Set<string>): State {
  const state = structuredClone(before);
  operationsOf(body).forEach(({ op, path, value }, index) => {
    if (!path) assign(state, op, value, undefined, touched);
    else if (isExtension(path)) applyToExtension(state, op, value, index, touched);
    else applyAt(state, op, path, value, true, touched);
  });
  return state;
}
