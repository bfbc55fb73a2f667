import { isObject } from "../lib/isObject";
import { parsePath, type AttrPath, type Filter } from "./filter";
import { FilterSyntaxError } from "./filterTokens";
import { URN } from "./routeKit";
import { invalidSyntax, invalidValue, ScimError } from "./scimErrors";

/**
 * The PatchOp envelope of RFC 7644 §3.5.2, read the same way for Users and Groups: its
 * operations in order, each with its path parsed, and what a path's value filter
 * (`emails[type eq "work"]`) selects. What an operation does to a resource is the resource's
 * own (assign.ts for the User, groupPatch.ts for the Group).
 */
export const MAX_OPERATIONS = 100;
export type Op = "add" | "replace" | "remove";
export type PatchOperation =
  | { op: Op; path: AttrPath; value: unknown }
  /** No path: each member of the value names an attribute (RFC 7644 §3.5.2.1, §3.5.2.3). */
  | { op: "add" | "replace"; path?: undefined; value: Record<string, unknown> };

/** A member of a JSON object by name, case-insensitively (attribute names, PatchOp members). */
export const propertyOf = (object: Record<string, unknown>, name: string) =>
  object[Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase()) ?? ""];

/**
 * A POST or PUT body's `schemas`, when sent: an array of URNs, as the served document says (which
 * URNs is not checked: providers list the extensions differently).
 */
export function assertSchemaList(body: Record<string, unknown>): void {
  const schemas = propertyOf(body, "schemas");
  if (
    schemas !== undefined &&
    !(Array.isArray(schemas) && schemas.every((urn) => typeof urn === "string"))
  )
    throw invalidSyntax('"schemas" must be an array of schema URNs (strings).');
}

/** A path of an operation (or a bracketed key of its value); malformed: `invalidPath`. */
export function attrPathOf(text: string): AttrPath {
  try {
    return parsePath(text);
  } catch (err) {
    if (err instanceof FilterSyntaxError)
      throw new ScimError(
        "invalid_request",
        `Invalid path ${JSON.stringify(text.slice(0, 200))}: ${err.message}`,
        "invalidPath",
      );
    throw err;
  }
}

function operationOf(operation: unknown, index: number): PatchOperation {
  if (!isObject(operation)) throw invalidSyntax(`Operations[${index}] must be an object.`);
  const named = propertyOf(operation, "op");
  const op = typeof named === "string" ? named.toLowerCase() : "";
  if (op !== "add" && op !== "replace" && op !== "remove")
    throw invalidSyntax(`Operations[${index}].op must be "add", "replace" or "remove".`);
  const [path, value] = [propertyOf(operation, "path"), propertyOf(operation, "value")];
  if (path !== undefined && (typeof path !== "string" || !path.trim()))
    throw new ScimError(
      "invalid_request",
      `Operations[${index}].path must be a non-empty string.`,
      "invalidPath",
    );
  if (typeof path === "string") return { op, path: attrPathOf(path.trim()), value };
  if (op === "remove")
    throw new ScimError(
      "invalid_request",
      `Operations[${index}]: "remove" needs a "path".`,
      "noTarget",
    );
  if (!isObject(value))
    throw invalidValue(
      `Operations[${index}].value must be an object of attributes when there is no "path".`,
    );
  return { op, value };
}

/** A PatchOp request body's operations, in the order they apply (all or none). */
export function operationsOf(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax("The body must be a PatchOp object.");
  const schemas = propertyOf(body, "schemas");
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(URN.patchOp)))
    throw invalidSyntax(`"schemas" must contain "${URN.patchOp}".`);
  const operations = propertyOf(body, "Operations");
  if (!Array.isArray(operations) || operations.length === 0)
    throw invalidSyntax('"Operations" must be a non-empty array.');
  if (operations.length > MAX_OPERATIONS)
    throw invalidValue(
      `A PATCH may carry at most ${MAX_OPERATIONS} operations; this one has ` +
        `${operations.length}. Send the changes in several requests.`,
    );
  return operations.map(operationOf);
}

/**
 * Whether a value of a multi-valued attribute matches a value filter. Strings compare
 * case-insensitively, as the attributes here are not caseExact.
 */
export function matches(filter: Filter, item: Record<string, unknown>): boolean {
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
