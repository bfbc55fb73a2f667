import type { Request } from "express";
import { findUser } from "../repos/users";
import { findGroup, groupsWhere, membersOf, type StoredGroup } from "../services/groups";
import { MAX_RESULTS } from "./discovery";
import type { GroupTerms } from "./groupPatch";
import { toScimGroup } from "./groupWire";
import { project } from "./projection";
import { scimUrl } from "./routeKit";

/** Groups as SCIM answers them: one as a resource (members read only when asked for), and a filter's matches. */
/** Whether the answer shows members (they are read only then: Entra and Okta leave them out). */
function wantsMembers(attributes?: string, excluded?: string): boolean {
  const names = (list?: string) =>
    (list ?? "")
      .split(",")
      .map((n) =>
        n
          .trim()
          .toLowerCase()
          .replace(/^urn:ietf:params:scim:schemas:core:2\.0:group:/, ""),
      )
      .filter(Boolean);
  if (names(excluded).some((n) => n === "members" || n.startsWith("members."))) return false;
  const wanted = names(attributes);
  return !wanted.length || wanted.some((n) => n === "members" || n.startsWith("members."));
}

export async function groupResource(
  req: Request,
  companyId: string,
  group: StoredGroup,
  q: { attributes?: string; excludedAttributes?: string } = {},
) {
  const members = wantsMembers(q.attributes, q.excludedAttributes)
    ? await membersOf(companyId, group.id)
    : null;
  const resource = toScimGroup(group, members, (path) => scimUrl(req, path));
  return project(resource, q.attributes, q.excludedAttributes);
}

/** The groups a filter selects: one exact lookup, the other terms checked on what it found. */
export async function groupsMatching(companyId: string, terms: GroupTerms): Promise<StoredGroup[]> {
  let found: StoredGroup[];
  if (terms.id !== undefined)
    found = [await findGroup(companyId, terms.id)].filter((g) => g !== null);
  else if (terms.displayName !== undefined)
    found = await groupsWhere(companyId, "displayNameKey", terms.displayName);
  else if (terms.externalId !== undefined)
    found = await groupsWhere(companyId, "externalId", terms.externalId);
  else {
    const user = terms.member === undefined ? null : await findUser(terms.member);
    const ids = user && user.companyId === companyId && !user.removedAt ? user.scimGroups : [];
    found = (
      await Promise.all(ids.slice(0, MAX_RESULTS).map((id) => findGroup(companyId, id)))
    ).filter((g) => g !== null);
  }
  const member = terms.member;
  const holders = member === undefined ? null : new Set((await findUser(member))?.scimGroups ?? []);
  return found.filter(
    (g) =>
      (terms.displayName === undefined || g.displayNameKey === terms.displayName) &&
      (terms.externalId === undefined || g.externalId === terms.externalId) &&
      (terms.id === undefined || g.id === terms.id) &&
      (holders === null || holders.has(g.id)),
  );
}
