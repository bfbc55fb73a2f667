import { isObject } from "../lib/isObject";
import type { GroupChange, GroupFields } from "../services/groups";
import { parseFilter, type AttrPath, type Filter } from "./filter";
import { FilterSyntaxError } from "./filterTokens";
import { MAX_MEMBERS_PER_REQUEST } from "./groupWire";
import { assertSchemaList, propertyOf as member, operationsOf } from "./patchOp";
import { URN } from "./routeKit";
import { invalidSyntax, invalidValue, ScimError } from "./scimErrors";
import { checkedText } from "./values";

/**
 * A Group request body as the groups service's input: POST and PUT bodies, and RFC 7644 PATCH
 * operations as Okta's Group Push and Entra ID send them (renames by a path-less replace of
 * `{ id, displayName }`, members added and removed by `members` and `members[value eq "…"]`).
 */
const is = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

function text(value: unknown, name: string, max: number, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw invalidValue(`"${name}" is required.`);
    return null;
  }
  if (typeof value !== "string") throw invalidValue(`"${name}" must be a string.`);
  const trimmed = value.trim();
  if (!trimmed && required) throw invalidValue(`"${name}" must not be empty.`);
  return checkedText(trimmed || null, name, max);
}

/** Over the cap, whether in one value or over all operations: `tooMany`, as the catalogue says. */
const tooManyMembers = () =>
  new ScimError(
    "invalid_request",
    `A request may name at most ${MAX_MEMBERS_PER_REQUEST} members, over all its operations.`,
    "tooMany",
  );

/** The user ids of a `members` value: `[{ "value": id }]` (a single object or id string too). */
function memberIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  if (items.length > MAX_MEMBERS_PER_REQUEST) throw tooManyMembers();
  return items.map((item) => {
    const id = typeof item === "string" ? item : isObject(item) ? member(item, "value") : undefined;
    if (typeof id !== "string" || !id.trim())
      throw invalidValue('Each member must be an object with the user\'s id as "value".');
    return id.trim();
  });
}

/** A POST or PUT body; `members` undefined when the body leaves them out. */
export function groupOfBody(body: unknown): { fields: GroupFields; members?: string[] } {
  if (!isObject(body)) throw invalidSyntax("The body must be a Group resource (a JSON object).");
  assertSchemaList(body);
  const members = member(body, "members");
  const ids = members === undefined ? undefined : memberIds(members);
  // A body states the resource, so `members` is the array of objects its schema says (null:
  // none); only a PATCH value may be one member alone.
  if (ids?.length && !(Array.isArray(members) && members.every(isObject)))
    throw invalidValue('"members" must be an array of objects with the user\'s id as "value".');
  return {
    fields: {
      displayName: text(member(body, "displayName"), "displayName", 256, true) as string,
      externalId: text(member(body, "externalId"), "externalId", 256, false),
    },
    ...(ids === undefined ? {} : { members: ids }),
  };
}

/** The member a `members[value eq "id"]` path names. */
function filteredMember(filter: Filter): string {
  if (filter.kind === "compare" && filter.op === "eq" && is(filter.path.attr, "value"))
    if (typeof filter.value === "string") return filter.value;
  throw new ScimError(
    "invalid_request",
    'Only members[value eq "<user id>"] selects members.',
    "invalidPath",
  );
}

/** The change a PatchOp body asks for: operations in order, all or none. */
export function groupChangeOf(body: unknown): GroupChange {
  const change: GroupChange = {};
  let set: string[] | null = null;
  // The cap is on the whole request, not on each operation's value: ids named across operations.
  let named = 0;
  const ids = (value: unknown, more = memberIds(value)): string[] => {
    named += more.length;
    if (named > MAX_MEMBERS_PER_REQUEST) throw tooManyMembers();
    return more;
  };
  const [add, remove] = [new Set<string>(), new Set<string>()];
  const addMember = (id: string) => (set ? set.push(id) : (add.add(id), remove.delete(id)));
  const removeMember = (id: string) =>
    set ? (set = set.filter((m) => m !== id)) : (remove.add(id), add.delete(id));
  const apply = (op: string, name: string, value: unknown, path?: AttrPath): void => {
    if (is(name, "displayName")) {
      if (op === "remove") throw invalidValue('"displayName" is required: it cannot be removed.');
      change.displayName = text(value, "displayName", 256, true) as string;
    } else if (is(name, "externalId"))
      change.externalId = op === "remove" ? null : text(value, "externalId", 256, false);
    else if (is(name, "members")) {
      if (path?.valueFilter) {
        if (op !== "remove")
          throw new ScimError(
            "invalid_request",
            `"${op}" of members takes no filter.`,
            "invalidPath",
          );
        ids([filteredMember(path.valueFilter)]).forEach(removeMember);
        return;
      }
      if (op === "replace") set = ids(value);
      else if (op === "add") ids(value).forEach(addMember);
      // Entra ID removes with the ids in `value`; without one, every member goes.
      else if (value === undefined || value === null) set = [];
      else ids(value).forEach(removeMember);
    }
    // `id`, `schemas`, `meta` and attributes a Group does not have: ignored (Okta sends `id` in a
    // rename).
  };
  for (const { op, path, value } of operationsOf(body)) {
    if (!path) {
      for (const [name, v] of Object.entries(value)) apply(op, name, v);
      continue;
    }
    if (path.uri !== undefined && !is(path.uri, URN.group))
      throw new ScimError(
        "invalid_request",
        `No attribute "${path.uri}:${path.attr}" on a Group.`,
        "invalidPath",
      );
    if (path.sub)
      throw new ScimError(
        "invalid_request",
        `"${path.attr}.${path.sub}" is not supported.`,
        "invalidPath",
      );
    apply(op, path.attr, value, path);
  }
  if (set) change.members = { set };
  else if (add.size || remove.size) change.members = { add: [...add], remove: [...remove] };
  return change;
}

/**
 * What a Groups filter asks: `eq` on displayName, externalId or id, and members[value eq "…"],
 * joined by `and`.
 */
export interface GroupTerms {
  displayName?: string;
  externalId?: string;
  id?: string;
  member?: string;
}

const GROUP_FILTERS =
  "Supported: eq on displayName, externalId and id, and " +
  'members[value eq "<user id>"], joined by and.';
const invalidFilter = (message: string) =>
  new ScimError("invalid_request", `${message} ${GROUP_FILTERS}`, "invalidFilter");

function termsOf(filter: Filter, terms: GroupTerms): GroupTerms {
  if (filter.kind === "and") return termsOf(filter.right, termsOf(filter.left, terms));
  if (filter.kind === "has" && is(filter.path.attr, "members") && filter.path.valueFilter)
    return { ...terms, member: filteredMember(filter.path.valueFilter) };
  if (filter.kind !== "compare" || filter.op !== "eq" || typeof filter.value !== "string")
    throw invalidFilter("This filter is not supported.");
  const { attr, sub } = filter.path;
  if (is(attr, "members") && is(sub, "value")) return { ...terms, member: filter.value };
  if (sub) throw invalidFilter(`Filtering on "${attr}.${sub}" is not supported.`);
  if (is(attr, "displayName")) return { ...terms, displayName: filter.value.trim().toLowerCase() };
  if (is(attr, "externalId")) return { ...terms, externalId: filter.value };
  if (is(attr, "id")) return { ...terms, id: filter.value };
  throw invalidFilter(`Filtering on "${attr}" is not supported.`);
}

export function groupTerms(filter: string): GroupTerms {
  try {
    return termsOf(parseFilter(filter), {});
  } catch (err) {
    if (err instanceof FilterSyntaxError)
      throw new ScimError(
        "invalid_request",
        `The filter is not valid: ${err.message}`,
        "invalidFilter",
      );
    throw err;
  }
}
