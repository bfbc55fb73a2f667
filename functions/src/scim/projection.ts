import { isObject } from "../lib/isObject";
import { URN } from "./routeKit";
import { invalidValue } from "./scimErrors";

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which attributes of a
 * resource are returned. Names are case-insensitive, may be a sub-attribute (`name.givenName`)
 * and may carry their schema URN (`urn:…:enterprise:2.0:User:department`, or the extension's
 * URN alone for all of it). `id` and `schemas` are always returned (`returned: always`).
 */
type Resource = Record<string, unknown>;
interface Wanted {
  /** The top-level member: a core attribute, or the enterprise extension's URN. */
  top: string;
  sub?: string;
}

const ALWAYS = ["id", "schemas"];
const memberOf = (object: Resource, name: string) =>
  Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());

function parseList(list: string, parameter: string): Wanted[] {
  const names = list
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length > 50) throw invalidValue(`"${parameter}" may name at most 50 attributes.`);
  return names.map((name) => {
    const lower = name.toLowerCase();
    const enterprise = URN.enterprise.toLowerCase();
    if (lower === enterprise) return { top: URN.enterprise };
    if (lower.startsWith(`${enterprise}:`))
      return { top: URN.enterprise, sub: name.slice(enterprise.length + 1) };
    const core = URN.user.toLowerCase();
    const bare = lower.startsWith(`${core}:`) ? name.slice(core.length + 1) : name;
    const [top, sub] = bare.split(".", 2);
    return { top, sub };
  });
}

function pick(resource: Resource, wanted: Wanted, into: Resource): void {
  const key = memberOf(resource, wanted.top);
  if (key === undefined) return;
  const value = resource[key];
  if (wanted.sub === undefined || (!isObject(value) && !Array.isArray(value))) {
    into[key] = value;
    return;
  }
  const sub = wanted.sub;
  if (Array.isArray(value)) {
    into[key] = value.map((item, i) => {
      const subKey = isObject(item) ? memberOf(item, sub) : undefined;
      const kept =
        (isObject(into[key]) || Array.isArray(into[key])
          ? (into[key] as Resource[])[i]
          : undefined) ?? {};
      return subKey === undefined ? kept : { ...kept, [subKey]: (item as Resource)[subKey] };
    });
    return;
  }
  const subKey = memberOf(value, sub);
  if (subKey !== undefined) into[key] = { ...(into[key] ?? {}), [subKey]: value[subKey] };
}

function drop(resource: Resource, wanted: Wanted): void {
  const key = memberOf(resource, wanted.top);
  if (key === undefined || ALWAYS.includes(key)) return;
  if (wanted.sub === undefined) {
    delete resource[key];
    return;
  }
  const value = resource[key];
  const strip = (item: unknown) => {
    if (!isObject(item)) return item;
    const subKey = memberOf(item, wanted.sub ?? "");
    if (subKey === undefined) return item;
    return Object.fromEntries(Object.entries(item).filter(([k]) => k !== subKey));
  };
  resource[key] = Array.isArray(value) ? value.map(strip) : strip(value);
}

/** The resource as the request's `attributes` / `excludedAttributes` ask (both absent: whole). */
export function project<T extends Resource>(
  resource: T,
  attributes?: string,
  excludedAttributes?: string,
): Resource {
  let out: Resource = resource;
  if (attributes !== undefined && attributes.trim()) {
    out = Object.fromEntries(ALWAYS.filter((k) => k in resource).map((k) => [k, resource[k]]));
    for (const wanted of parseList(attributes, "attributes")) pick(resource, wanted, out);
  }
  if (excludedAttributes !== undefined && excludedAttributes.trim()) {
    out = structuredClone(out);
    for (const wanted of parseList(excludedAttributes, "excludedAttributes")) drop(out, wanted);
  }
  return out;
}
