import { isObject } from "../lib/isObject";
import { assign, type State } from "./assign";
import type { AttributeDef } from "./routeKit";
import { invalidValue } from "./scimErrors";
import {
  attributeOf,
  ENTERPRISE_ATTRIBUTES,
  KEPT_AS_SENT,
  MAX_PROFILE_BYTES,
  NAME_PARTS_KEPT_AS_SENT,
} from "./userSchema";
import { primaryOf, type Item } from "./values";

/**
 * The attributes a provider sends that the app has no field for (the user's `scimProfile`,
 * docs/firestore-data.md), kept as sent so that they read back as sent: a provider compares
 * what it reads with what it maps and PATCHes every difference again at each evaluation.
 */
export type Profile = Record<string, unknown>;

const ENTERPRISE = new Set(ENTERPRISE_ATTRIBUTES.map((d) => d.name));

const hasValue = (v: unknown) =>
  v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0);
/** An object without its empty members (null when none is left). */
function compact(item: Item): Item | null {
  const kept = Object.entries(item).filter(([, v]) => hasValue(v));
  return kept.length ? Object.fromEntries(kept) : null;
}

/**
 * The sign-in address's value (primary, else work, else first) sent without a type is typed
 * `work`, so that `emails[type eq "work"]` (Entra ID's path) finds it as it always did.
 */
function typedAddress(items: Item[]): Item[] {
  const chosen = primaryOf(items);
  return items.map((i) => (i === chosen && i.type === undefined ? { ...i, type: "work" } : i));
}

/**
 * The profile a state holds: its stored attributes with a value, in one order (so two profiles
 * compare as JSON).
 */
export function profileOf(state: State): Profile {
  const profile: Profile = {};
  for (const name of KEPT_AS_SENT) {
    const value = state[name];
    if (Array.isArray(value)) {
      const items = value.map((i) => (isObject(i) ? compact(i) : null)).filter((i) => i !== null);
      if (items.length) profile[name] = name === "emails" ? typedAddress(items) : items;
    } else if (isObject(value)) {
      const item = compact(value);
      if (item) profile[name] = item;
    } else if (hasValue(value)) profile[name] = value;
  }
  const name = isObject(state.name) ? state.name : {};
  const extras = compact(Object.fromEntries(NAME_PARTS_KEPT_AS_SENT.map((n) => [n, name[n]])));
  if (extras) profile.name = extras;
  return profile;
}

/**
 * JSON with every object's keys in order: a stored map and a request's object compare equal
 * whatever their key order.
 */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical(v[k])]),
        )
      : v;
export const sameProfile = (a: Profile, b: Profile) =>
  JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * A state's profile attributes as served: the core ones beside the others, the enterprise ones in
 * the extension (`name` and `emails` are served with theirs).
 */
export function servedProfile(state: State): { core: Item; enterprise: Item } {
  const served = { core: {} as Item, enterprise: {} as Item };
  for (const [key, value] of Object.entries(profileOf(state)))
    if (key !== "name" && key !== "emails")
      served[ENTERPRISE.has(key) ? "enterprise" : "core"][key] = value;
  return served;
}

/** The profile a request would store, within its bound. */
export function checkedProfileOf(state: State): Profile {
  const profile = profileOf(state);
  const size = Buffer.byteLength(JSON.stringify(profile));
  if (size > MAX_PROFILE_BYTES)
    throw invalidValue(
      `The user's ${KEPT_AS_SENT.filter((n) => n !== "emails").join(", ")} and emails take ` +
        `${size} bytes together; at most ${MAX_PROFILE_BYTES} are kept.`,
    );
  return profile;
}

/** Whether a stored value has the shape profileOf stores for the attribute. */
const storedShape = (def: AttributeDef, value: unknown) =>
  def.multiValued
    ? Array.isArray(value) && value.every(isObject)
    : def.type === "complex"
      ? isObject(value)
      : typeof value === "string";

/**
 * A stored profile into a state, each attribute read as a request's would be; an attribute
 * whose stored value is not of its shape is left out (stored data never fails a read).
 */
export function restoreProfile(state: State, stored: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(stored)) {
    if (key === "name") {
      if (!isObject(value)) continue;
      for (const extra of NAME_PARTS_KEPT_AS_SENT)
        if (typeof value[extra] === "string")
          state.name = { ...(state.name as Item), [extra]: value[extra] };
      continue;
    }
    const def = KEPT_AS_SENT.includes(key) ? attributeOf(undefined, key)?.def : undefined;
    if (!def || !storedShape(def, value)) continue;
    const attempt: State = {};
    try {
      assign(attempt, "replace", { [key]: value });
      state[key] = attempt[key];
    } catch {
      // A value no request could have stored (a string too long, a sub-attribute of the wrong
      // type): left out.
    }
  }
}
