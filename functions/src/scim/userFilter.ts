import { parseFilter, type AttrPath, type Filter } from "./filter";
import { FilterSyntaxError } from "./filterTokens";
import { URN } from "./routeKit";
import { ScimError } from "./scimErrors";

/**
 * What the Users endpoint can search: `eq` on userName, externalId, id, emails.value and
 * emails[type eq "work"].value, joined by `and` (what Entra ID and Okta send). Each term is an
 * exact lookup; every other well-formed filter is `invalidFilter` naming what is not supported.
 */
export type UserKey = "email" | "userName" | "externalId" | "id";
export interface UserTerm {
  key: UserKey;
  value: string;
}

const invalidFilter = (message: string) =>
  new ScimError("invalid_request", message, "invalidFilter");
const SUPPORTED =
  'Supported: eq on userName, externalId, id, emails.value and emails[type eq "work"].value, ' +
  "joined by and.";

const is = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** `[type eq "work"]`, the one value filter a search may use. */
const isWorkType = (f: Filter | undefined) =>
  f?.kind === "compare" &&
  f.op === "eq" &&
  is(f.path.attr, "type") &&
  !f.path.sub &&
  typeof f.value === "string" &&
  is(f.value, "work");

function keyOf(path: AttrPath): UserKey | null {
  if (path.uri !== undefined && !is(path.uri, URN.user)) return null;
  if (!path.valueFilter && !path.sub) {
    if (is(path.attr, "userName")) return "userName";
    if (is(path.attr, "externalId")) return "externalId";
    if (is(path.attr, "id")) return "id";
  }
  if (
    is(path.attr, "emails") &&
    is(path.sub, "value") &&
    (!path.valueFilter || isWorkType(path.valueFilter))
  )
    return "email";
  return null;
}

function termsOf(filter: Filter): UserTerm[] {
  if (filter.kind === "and") return [...termsOf(filter.left), ...termsOf(filter.right)];
  if (filter.kind !== "compare") {
    const what =
      filter.kind === "present"
        ? '"pr"'
        : filter.kind === "has"
          ? "A value filter on its own"
          : `"${filter.kind}"`;
    throw invalidFilter(`${what} is not supported. ${SUPPORTED}`);
  }
  const { attr, valueFilter, sub } = filter.path;
  const name = `${attr}${valueFilter ? "[…]" : ""}${sub ? `.${sub}` : ""}`;
  if (filter.op !== "eq")
    throw invalidFilter(`Operator "${filter.op}" is not supported. ${SUPPORTED}`);
  const key = keyOf(filter.path);
  if (!key) throw invalidFilter(`Filtering on "${name}" is not supported. ${SUPPORTED}`);
  if (typeof filter.value !== "string")
    throw invalidFilter(`"${name}" is compared with a JSON string, e.g. ${name} eq "value".`);
  // userName and e-mail addresses are case-insensitive (RFC 7643 caseExact false); externalId and
  // id are exact.
  return [
    {
      key,
      value:
        key === "email" || key === "userName" ? filter.value.trim().toLowerCase() : filter.value,
    },
  ];
}

/** The lookups a `filter` parameter asks for (all must hold), or a SCIM `invalidFilter` error. */
export function userTerms(filter: string): UserTerm[] {
  try {
    return termsOf(parseFilter(filter));
  } catch (err) {
    if (err instanceof FilterSyntaxError)
      throw invalidFilter(`The filter is not valid: ${err.message}`);
    throw err;
  }
}
