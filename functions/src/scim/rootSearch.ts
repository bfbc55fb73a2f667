import type { Request } from "express";
import type { AnyRoute } from "../http/route";
import { z } from "../http/zod";
import { groupsWindow } from "../services/groups";
import { SCIM_GROUP_EXAMPLE, SCIM_USER_EXAMPLE } from "./examples";
import { groupResources, groupsPage } from "./groupLookup";
import { groupTerms } from "./groupPatch";
import { scimGroupSchema } from "./groupWire";
import { listResponse, listResponseSchema, pageWindow, scimSuccess } from "./routeKit";
import { ScimError } from "./scimErrors";
import { listUsersPage, searchRoute, type ListRequest } from "./search";
import { userTerms } from "./userFilter";
import { scimUserSchema } from "./userWire";

/**
 * POST /scim/v2/.search (RFC 7644 §3.4.3): the search at the server root, over every resource
 * type. Without a filter: the users, then the groups, paged as one list. A filter names the
 * attributes of one type: a Users filter is answered as the users' search, else a Groups filter
 * as the groups' (a filter neither understands is the Users' `invalidFilter`).
 */
async function usersThenGroups(companyId: string, req: Request, q: ListRequest) {
  const { startIndex, count } = pageWindow(q);
  const users = await listUsersPage(companyId, req, q);
  const offset = Math.max(0, startIndex - 1 - users.totalResults);
  const groups = await groupsWindow(companyId, offset, count - users.Resources.length);
  const resources = await groupResources(req, companyId, groups.groups, q);
  return listResponse(
    [...users.Resources, ...resources],
    users.totalResults + groups.total,
    startIndex,
  );
}

async function rootPage(companyId: string, req: Request, q: ListRequest) {
  if (q.filter === undefined) return usersThenGroups(companyId, req, q);
  try {
    userTerms(q.filter);
  } catch (usersRefusal) {
    // Not a Users filter: a Groups one, else the Users' refusal (the more likely intent).
    if (!(usersRefusal instanceof ScimError)) throw usersRefusal;
    try {
      groupTerms(q.filter);
    } catch {
      throw usersRefusal;
    }
    return groupsPage(companyId, req, q);
  }
  return listUsersPage(companyId, req, q);
}

export const ROOT_SEARCH_ROUTE: AnyRoute = searchRoute(
  "/scim/v2/.search",
  "scimSearchAll",
  "SCIM: search every resource type with a SearchRequest body (RFC 7644 §3.4.3)",
  "The server-root search over users and groups: without a filter the users, then the groups, " +
    "paged as one list; a filter is a Users filter (answered as `POST /scim/v2/Users/.search`) " +
    "or else a Groups filter (as `GET /scim/v2/Groups`).",
  rootPage,
  scimSuccess(
    "A ListResponse of users and groups.",
    listResponseSchema(z.union([scimUserSchema, scimGroupSchema]), "ScimResourceList"),
    { example: listResponse([SCIM_USER_EXAMPLE, SCIM_GROUP_EXAMPLE]) },
  ),
);
