import type { Request } from "express";
import { findUser } from "../repos/users";
import {
  findGroup,
  groupsByIds,
  groupsWhere,
  groupsWindow,
  membersOf,
  type StoredGroup,
} from "../services/groups";
import { groupTerms, type GroupTerms } from "./groupPatch";
import { toScimGroup } from "./groupWire";
import { project } from "./projection";
import { listResponse, pageWindow, scimUrl } from "./routeKit";
import type { ListRequest } from "./search";

// Groups as SCIM answers them: one as a resource (members read only when asked for), a page, and a
// filter's matches.

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

/** The group as a resource, as `attributes` / `excludedAttributes` ask. */
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

/** One page of the company's groups as a ListResponse: by creation, or those a filter selects. */
export async function groupsPage(companyId: string, req: Request, q: ListRequest) {
  const { startIndex, count, page: window } = pageWindow(q);
  const page =
    q.filter === undefined
      ? await groupsWindow(companyId, startIndex - 1, count)
      : await groupsMatching(companyId, groupTerms(q.filter)).then((all) => ({
          total: all.length,
          groups: window(all),
        }));
  const resources = await Promise.all(page.groups.map((g) => groupResource(req, companyId, g, q)));
  return listResponse(resources, page.total, startIndex);
}

/**
 * The groups a filter selects: one exact lookup (or the member's groups), the other terms checked
 * on what it found.
 */
export async function groupsMatching(companyId: string, terms: GroupTerms): Promise<StoredGroup[]> {
  const member = terms.member === undefined ? undefined : await findUser(terms.member);
  const holds =
    member === undefined
      ? null
      : new Set(
          member && member.companyId === companyId && !member.removedAt ? member.scimGroups : [],
        );
  const found =
    terms.id !== undefined
      ? [await findGroup(companyId, terms.id)].filter((g) => g !== null)
      : terms.displayName !== undefined
        ? await groupsWhere(companyId, "displayNameKey", terms.displayName)
        : terms.externalId !== undefined
          ? await groupsWhere(companyId, "externalId", terms.externalId)
          : await groupsByIds(companyId, [...(holds ?? [])]);
  return found.filter(
    (g) =>
      (terms.displayName === undefined || g.displayNameKey === terms.displayName) &&
      (terms.externalId === undefined || g.externalId === terms.externalId) &&
      (terms.id === undefined || g.id === terms.id) &&
      (holds === null || holds.has(g.id)),
  );
}
