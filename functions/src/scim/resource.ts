import { z } from "../http/zod";
import { toIso } from "../lib/dates";
import { servedName } from "../lib/personName";
import type { StoredUser } from "../repos/users";
import type { PersonName } from "../services/users/decisions";
import type { NewUser } from "../services/users/invite";
import type { UserPatch } from "../services/users/lifecycle";
import { departmentNameOf } from "../services/users/rules";
import type { State } from "./assign";
import { checkedProfileOf, profileOf, restoreProfile, sameProfile, servedProfile } from "./profile";
import { URN } from "./routeKit";
import { invalidValue } from "./scimErrors";
import { checkedText, primaryOf, type Item } from "./values";

/**
 * The SCIM User resource and the roster user, both ways: a stored user as a resource and as a
 * patchable state, and a state (from a body or a PATCH) as the users service's input.
 */

export function stateOf(user: StoredUser, department: string | null): State {
  const state: State = {
    userName: user.userName ?? user.email,
    externalId: user.externalId,
    displayName: user.displayName,
    name: { givenName: user.givenName, familyName: user.familyName, formatted: user.formattedName },
    emails: user.email ? [{ value: user.email, type: "work", primary: true }] : [],
    active: user.status !== "deactivated",
    roles: user.role ? [{ value: user.role, primary: true }] : [],
    department,
  };
  const derivedEmails = state.emails;
  restoreProfile(state, user.scimProfile);
  // The emails as sent, while they still name the sign-in address (the app may have changed it
  // since).
  if (lower(primaryValue(state.emails)) !== user.email) state.emails = derivedEmails;
  return state;
}

const dropNulls = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));

/** The resource as served: attributes without a value are left out (RFC 7643 §2.5). */
export function toScimUser(user: StoredUser, department: string | null, location: string) {
  const state = stateOf(user, department);
  const { givenName, familyName, formatted } = servedName(user);
  const name = dropNulls({ ...(state.name as Item), givenName, familyName, formatted });
  const profile = servedProfile(state);
  const extension = { ...dropNulls({ department }), ...profile.enterprise };
  return {
    schemas: [URN.user, URN.enterprise],
    id: user.id,
    ...dropNulls({
      externalId: user.externalId,
      userName: state.userName,
      displayName: user.displayName,
    }),
    ...(Object.keys(name).length ? { name } : {}),
    ...profile.core,
    emails: state.emails as Item[],
    active: state.active as boolean,
    roles: state.roles as Item[],
    // Left out when it holds nothing, like every attribute without a value (RFC 7643 §2.5).
    ...(Object.keys(extension).length ? { [URN.enterprise]: extension } : {}),
    meta: dropNulls({
      resourceType: "User",
      created: toIso(user.createdAt),
      lastModified: toIso(user.updatedAt ?? user.createdAt),
      location,
    }),
  };
}

type Departments = Parameters<typeof departmentNameOf>[1];

/**
 * The department as SCIM reads it: the name the provider last sent while no department has it
 * (`unmatchedDepartment`: read back as sent, so the provider does not send it again at every
 * cycle), else the name of the user's department.
 */
export const scimDepartmentOf = (user: StoredUser, departments: Departments) =>
  user.unmatchedDepartment ?? departmentNameOf(user, departments);

/** A stored user as the resource served at its address, `location` (routeKit.ts, userUrl). */
export const userResource = (location: string, user: StoredUser, departments: Departments) =>
  toScimUser(user, scimDepartmentOf(user, departments), location);

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const primaryValue = (items: unknown) =>
  text(primaryOf((items as Item[] | undefined) ?? [])?.value);
const lower = (v: string | null) => v?.toLowerCase() ?? null;

const emailAddress = z.email().max(320);
const isEmail = (value: string) => emailAddress.safeParse(value.toLowerCase()).success;

/** The primary (else work, else first) value of `emails`, an e-mail address; else null. */
function emailsAddress(state: State): string | null {
  const chosen = primaryValue(state.emails);
  if (chosen === null) return null;
  if (!isEmail(chosen))
    throw invalidValue(
      `The primary (or work) value of "emails" must be an e-mail address; got ` +
        `${JSON.stringify(chosen.slice(0, 100))}.`,
    );
  return chosen.toLowerCase();
}

/** `userName` as a sign-in address, when it is an e-mail address; else null. */
function userNameAddress(state: State): string | null {
  const userName = text(state.userName);
  return userName !== null && isEmail(userName) ? userName.toLowerCase() : null;
}

function nameOf(state: State): PersonName {
  const { givenName, familyName, formatted } = (state.name as Item | null) ?? {};
  return {
    givenName: text(givenName),
    familyName: text(familyName),
    formattedName: text(formatted),
  };
}

const checkedName = (name: PersonName, kept?: PersonName): PersonName => ({
  givenName: checkedText(name.givenName, "name.givenName", 200, kept?.givenName),
  familyName: checkedText(name.familyName, "name.familyName", 200, kept?.familyName),
  formattedName: checkedText(name.formattedName, "name.formatted", 200, kept?.formattedName),
});

/** displayName, else the formatted name, else given and family name, else `fallback`. */
function displayNameOf(state: State, name: PersonName, fallback: string, kept?: string | null) {
  const own = checkedText(text(state.displayName), "displayName", 200, kept);
  const joined = [name.givenName, name.familyName].filter(Boolean).join(" ");
  return own ?? name.formattedName ?? (joined || fallback.slice(0, 200));
}

const roleOf = (state: State) => primaryValue(state.roles);
const departmentOf = (state: State) => text(state.department);
const externalIdOf = (state: State) => text(state.externalId);

/**
 * The role value a change of roles asks for: the primary of the values it added, else the primary
 * of all.
 */
function changedRole(before: State, after: State): string | null {
  const had = JSON.stringify((before.roles as Item[] | undefined) ?? []);
  const added = ((after.roles as Item[] | undefined) ?? []).filter(
    (item) => !had.includes(JSON.stringify(item.value ?? null)),
  );
  return primaryValue(added) ?? roleOf(after);
}

/**
 * A POST body as an invitation: the sign-in address from `emails` (or an e-mail `userName`), the
 * userName as written. Without any address (RFC 7643 requires only `userName`) the user has no
 * sign-in account until a later request brings one.
 */
export function newUserOf(state: State): Omit<NewUser, "provisionedBy"> {
  const fromEmails = emailsAddress(state);
  const email = fromEmails ?? userNameAddress(state);
  const userName = checkedText(text(state.userName), "userName", 320) ?? email;
  if (!userName)
    throw invalidValue(
      '"userName" is required (RFC 7643 §4.1.1), or an e-mail address in "emails".',
    );
  const name = checkedName(nameOf(state));
  return {
    email,
    userName,
    ...(fromEmails === null ? { addressFromUserName: true } : {}),
    displayName: displayNameOf(state, name, email ?? userName),
    department: checkedText(departmentOf(state), "department", 200),
    externalId: checkedText(externalIdOf(state), "externalId", 256),
    name,
    idpRole: roleOf(state),
    active: state.active !== false,
    profile: checkedProfileOf(state),
  };
}

const sameJson = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * How a request reached its state: which attributes it sent (left out: those whose value differs),
 * and whether the stored address follows `userName`.
 */
export interface ChangeContext {
  sent?: ReadonlySet<string>;
  addressFromUserName?: boolean;
}

/**
 * What changed between two states, as the users service's patch. The sign-in address follows
 * `emails` (primary, else work) when the request sent them; `userName` moves it only while the
 * address came from the userName and no `emails` were ever sent (Entra ID maps UPN and mail
 * separately and sends only what changed: a UPN rename must not move the address, which ends
 * every session); anything else keeps the current address.
 * `active` left unassigned keeps the user's state. `roles` and `department` left out of a
 * replace are reported as omitted (the company decides whether that keeps or clears them); a
 * role value equal to the user's app role changes nothing, else the primary new value is mapped.
 */
export function patchBetween(before: State, after: State, context: ChangeContext = {}): UserPatch {
  const patch: UserPatch = {};
  const [previousName, currentEmail] = [text(before.userName), lower(primaryValue(before.emails))];
  const userName = checkedText(text(after.userName), "userName", 320, previousName);
  if (userName === null && previousName !== null)
    throw invalidValue('"userName" cannot be removed.');
  if (userName !== null && userName !== previousName) patch.userName = userName;
  const sentEmails = context.sent
    ? context.sent.has("emails")
    : !sameJson(after.emails, before.emails);
  const followsUserName = context.addressFromUserName === true && !sentEmails;
  const email = sentEmails ? emailsAddress(after) : followsUserName ? userNameAddress(after) : null;
  if (email !== null && email !== currentEmail) patch.email = email;
  if (context.addressFromUserName && (!followsUserName || patch.email))
    patch.addressFromUserName = followsUserName;
  if (typeof after.active === "boolean" && after.active !== before.active)
    patch.active = after.active;
  const name = checkedName(nameOf(after), nameOf(before));
  if (JSON.stringify(name) !== JSON.stringify(nameOf(before))) patch.name = name;
  const fallback = email ?? currentEmail ?? userName ?? "";
  const displayName = displayNameOf(after, name, fallback, text(before.displayName));
  if (displayName !== before.displayName) patch.displayName = displayName;
  if (after.department === undefined) patch.omitted = { department: true };
  else if (departmentOf(after) !== departmentOf(before))
    patch.department = checkedText(departmentOf(after), "department", 200);
  const externalId = checkedText(externalIdOf(after), "externalId", 256, externalIdOf(before));
  if (externalId !== externalIdOf(before)) patch.externalId = externalId;
  const profile = checkedProfileOf(after);
  if (!sameProfile(profile, profileOf(before))) patch.profile = profile;
  if (after.roles === undefined) patch.omitted = { ...patch.omitted, roles: true };
  else if (!sameJson(after.roles, before.roles)) {
    const asked = changedRole(before, after);
    if (lower(asked) !== lower(roleOf(before))) patch.idpRole = asked;
  }
  return patch;
}
