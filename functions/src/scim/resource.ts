import { z } from "../http/zod";
import { toIso } from "../repos/stored";
import type { RosterUser } from "../repos/roster";
import type { NewUser, PersonName, UserPatch } from "../services/users";
import { invalidValue } from "./errors";
import { assign, type State } from "./patch";
import { URN } from "./schema";

/**
 * The SCIM User resource and the roster user, both ways: a stored user as a resource and as a
 * patchable state, and a state (from a body or a PATCH) as the users service's input.
 */
type Item = Record<string, unknown>;

export function stateOf(user: RosterUser, department: string | null): State {
  return {
    userName: user.email,
    externalId: user.externalId,
    displayName: user.displayName,
    name: { givenName: user.givenName, familyName: user.familyName, formatted: user.formattedName },
    emails: user.email ? [{ value: user.email, type: "work", primary: true }] : [],
    active: user.status !== "deactivated",
    roles: user.role ? [{ value: user.role, primary: true }] : [],
    department,
  };
}

const dropNulls = <T extends Record<string, unknown>>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));

/** The resource as served: attributes without a value are left out (RFC 7643 §2.5). */
export function toScimUser(user: RosterUser, department: string | null, location: string) {
  const state = stateOf(user, department);
  const name = dropNulls(state.name as Item);
  return {
    schemas: [URN.user, URN.enterprise],
    id: user.id,
    ...dropNulls({ externalId: user.externalId, userName: user.email, displayName: user.displayName }),
    ...(Object.keys(name).length ? { name } : {}),
    emails: state.emails as Item[],
    active: state.active as boolean,
    roles: state.roles as Item[],
    [URN.enterprise]: dropNulls({ department }),
    meta: dropNulls({ resourceType: "User", created: toIso(user.createdAt), lastModified: toIso(user.updatedAt ?? user.createdAt), location }),
  };
}

/** The state a POST or PUT body describes: everything it leaves out is unassigned. */
export function stateFromBody(body: unknown): State {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidValue("The body must be a User resource (a JSON object).");
  const state: State = { name: {}, emails: [], roles: [] };
  assign(state, "replace", body as Record<string, unknown>);
  return state;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const primaryValue = (items: unknown) => {
  const list = (items as Item[] | undefined) ?? [];
  return text((list.find((i) => i.primary === true) ?? list.find((i) => typeof i.type === "string" && i.type.toLowerCase() === "work") ?? list[0])?.value);
};
const lower = (v: string | null) => v?.toLowerCase() ?? null;

const emailAddress = z.email().max(320);
function checkedEmail(value: string): string {
  const email = value.toLowerCase();
  if (!emailAddress.safeParse(email).success) throw invalidValue(`"userName" must be an e-mail address (it is the user's sign-in address); got ${JSON.stringify(value.slice(0, 100))}.`);
  return email;
}

/** A value of the request, within its limit (stored values are compared as they are). */
function checkedText(value: string | null, attribute: string, max: number, check = true): string | null {
  if (check && value !== null && value.length > max) throw invalidValue(`"${attribute}" is longer than ${max} characters.`);
  return value;
}

function nameOf(state: State, check = true): PersonName {
  const name = (state.name as Item | null) ?? {};
  return {
    givenName: checkedText(text(name.givenName), "name.givenName", 200, check),
    familyName: checkedText(text(name.familyName), "name.familyName", 200, check),
    formattedName: checkedText(text(name.formatted), "name.formatted", 200, check),
  };
}

/** displayName, else the formatted name, else given and family name, else the e-mail address. */
function displayNameOf(state: State, name: PersonName, email: string): string {
  const own = checkedText(text(state.displayName), "displayName", 200);
  const joined = [name.givenName, name.familyName].filter(Boolean).join(" ");
  return own ?? name.formattedName ?? (joined || email.slice(0, 200));
}

const roleOf = (state: State) => primaryValue(state.roles);
const departmentOf = (state: State, check = true) => checkedText(text(state.department), "department", 200, check);
const externalIdOf = (state: State, check = true) => checkedText(text(state.externalId), "externalId", 256, check);

/** The role value a change of roles asks for: the primary of the values it added, else the primary of all. */
function changedRole(before: State, after: State): string | null {
  const had = JSON.stringify((before.roles as Item[] | undefined) ?? []);
  const added = ((after.roles as Item[] | undefined) ?? []).filter((item) => !had.includes(JSON.stringify(item.value ?? null)));
  return primaryValue(added) ?? roleOf(after);
}

/** A POST body as an invitation. */
export function newUserOf(state: State): Omit<NewUser, "provisionedBy"> {
  const raw = text(state.userName) ?? primaryValue(state.emails);
  if (!raw) throw invalidValue('"userName" is required: the user\'s e-mail address.');
  const email = checkedEmail(raw);
  const name = nameOf(state);
  return {
    email,
    displayName: displayNameOf(state, name, email),
    department: departmentOf(state),
    externalId: externalIdOf(state),
    name,
    idpRole: roleOf(state),
    active: state.active !== false,
  };
}

/**
 * What changed between two states, as the users service's patch. The e-mail address changes
 * through `userName` only (`emails` mirrors it: an identity provider whose mail differs from the
 * user name must not move the sign-in address back and forth); `active` left unassigned keeps
 * the user's state; when roles differ, the primary new value (else the primary) is mapped again.
 */
export function patchBetween(before: State, after: State): UserPatch {
  const patch: UserPatch = {};
  const userName = text(after.userName);
  const currentEmail = lower(text(before.userName));
  if (userName !== null && lower(userName) !== currentEmail) patch.email = checkedEmail(userName);
  else if (userName === null && text(before.userName) !== null) throw invalidValue('"userName" cannot be removed: it is the user\'s e-mail address.');
  if (typeof after.active === "boolean" && after.active !== before.active) patch.active = after.active;
  const email = patch.email ?? currentEmail ?? "";
  const name = nameOf(after);
  const previousName = nameOf(before, false);
  if (JSON.stringify(name) !== JSON.stringify(previousName)) patch.name = name;
  const displayName = displayNameOf(after, name, email);
  if (displayName !== before.displayName) patch.displayName = displayName;
  if (departmentOf(after) !== departmentOf(before, false)) patch.department = departmentOf(after);
  if (externalIdOf(after) !== externalIdOf(before, false)) patch.externalId = externalIdOf(after);
  if (JSON.stringify(after.roles ?? []) !== JSON.stringify(before.roles ?? [])) patch.idpRole = changedRole(before, after);
  return patch;
}
