import type { Filter } from "./filter";

/**
 * Value filters of multi-valued attributes (RFC 7644 §3.5.2: `emails[type eq "work"]`): whether
 * a value matches one. Strings compare case-insensitively, as the attributes here are not
 * caseExact.
 */
type Item = Record<string, unknown>;
/**
 * A member of a JSON object by name, case-insensitively (SCIM attribute names and PatchOp members).
 */
export const propertyOf = (object: Record<string, unknown>, name: string) =>
  object[Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ""];

/**
 * Whether a value of a multi-valued attribute matches a value filter (strings compared
 * case-insensitively).
 */
export function matches(filter: Filter, item: Item): boolean {
  switch (filter.kind) {
    case "and":
      return matches(filter.left, item) && matches(filter.right, item);
    case "or":
      return matches(filter.left, item) || matches(filter.right, item);
    case "not":
      return !matches(filter.filter, item);
    case "has":
      return false;
    case "present": {
      const v = propertyOf(item, filter.path.attr);
      return v !== undefined && v !== null && v !== "";
    }
    case "compare": {
      const raw = propertyOf(item, filter.path.attr);
      // Entra ID compares booleans with strings: `roles[primary eq "True"]`.
      const value =
        typeof raw === "boolean" &&
        typeof filter.value === "string" &&
        /^(true|false)$/i.test(filter.value)
          ? filter.value.toLowerCase() === "true"
          : filter.value;
      const [a, b] = [
        typeof raw === "string" ? raw.toLowerCase() : raw,
        typeof value === "string" ? value.toLowerCase() : value,
      ];
      if (filter.op === "eq") return a === b || (a === undefined && b === null);
      if (filter.op === "ne") return !(a === b || (a === undefined && b === null));
      if (typeof a !== "string" && typeof a !== "number") return false;
      if (filter.op === "co")
        return typeof a === "string" && typeof b === "string" && a.includes(b);
      if (filter.op === "sw")
        return typeof a === "string" && typeof b === "string" && a.startsWith(b);
      if (filter.op === "ew")
        return typeof a === "string" && typeof b === "string" && a.endsWith(b);
      if (b === null || typeof b === "boolean" || typeof a !== typeof b) return false;
      return filter.op === "gt"
        ? a > b
        : filter.op === "ge"
          ? a >= b
          : filter.op === "lt"
            ? a < b
            : a <= b;
    }
  }
}
