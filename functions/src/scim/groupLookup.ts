import type { Request } from "express";
import { findUser } from "../repos/users";
import {
  findGroup,
  groupsByIds,
  groupsWhere,
  groupsWindow,
  memberCount,
  membersOf,
  type Member,
  type StoredGroup,
} from "../services/groups";
import { groupTerms, type GroupTerms } from "./groupPatch";
import { MEMBERS_PER_ANSWER, MEMBERS_PER_WRITE_ANSWER, toScimGroup } from "./groupWire";
import { project } from "./projection";
import { listResponse, pageWindow, scimUrl } from "./routeKit";
import { ScimError } from "./scimErrors";
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

type Projection = { attributes?: string; excludedAttributes?: string };

/**
 * The members of these groups, if asked for and at most `MEMBERS_PER_ANSWER` in all (the read
 * budget, docs/api-behaviour.md): counted first (1 read per 1,000), read only when they fit. Over
 * it, a read is refused (400 `tooMany`); a write's answer (`omit`), whose change has spent most
 * of the budget, lists them up to `MEMBERS_PER_WRITE_ANSWER` and else leaves them out.
 */
async function membersFor(
  companyId: string,
  groups: StoredGroup[],
  q: Projection,
  overBudget: "refuse" | "omit",
): Promise<Array<Member[] | null>> {
  if (!groups.length || !wantsMembers(q.attributes, q.excludedAttributes))
    return groups.map(() => null);
  const total = (await Promise.all(groups.map((g) => memberCount(g.id)))).reduce((a, b) => a + b);
  if (total <= (overBudget === "omit" ? MEMBERS_PER_WRITE_ANSWER : MEMBERS_PER_ANSWER))
    return Promise.all(groups.map((g) => membersOf(companyId, g.id)));
  if (overBudget === "omit") return groups.map(() => null);
  throw new ScimError(
    "invalid_request",
    `These groups have ${total} members; one answer lists at most ${MEMBERS_PER_ANSWER}. Ask ` +
      "with excludedAttributes=members (what Entra ID and Okta send) or a smaller count; " +
      'filter=members[value eq "<user id>"] checks one member.',
    "tooMany",
  );
}

/** The groups as resources, as `attributes` / `excludedAttributes` ask. */
export async function groupResources(
  req: Request,
  companyId: string,
  groups: StoredGroup[],
  q: Projection = {},
  overBudget: "refuse" | "omit" = "refuse",
) {
  const members = await membersFor(companyId, groups, q, overBudget);
  return groups.map((group, i) => {
    const resource = toScimGroup(group, members[i], (path) => scimUrl(req, path));
    return project(resource, q.attributes, q.excludedAttributes);
  });
}

/** The group as a resource (a write's answer: `omit`, its members left out over the budget). */
export async function groupResource(
  req: Request,
  companyId: string,
  group: StoredGroup,
  q: Projection = {},
  overBudget: "refuse" | "omit" = "refuse",
) {
  return (await groupResources(req, companyId, [group], q, overBudget))[0];
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
  return listResponse(await groupResources(req, companyId, page.groups, q), page.total, startIndex);
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
