import { defineRoute, Reply, type AnyRoute } from "../http/route";
import { z } from "../http/zod";
import { createGroup, deleteGroup, findGroup, GroupsError, updateGroup } from "../services/groups";
import { SCIM_GROUP_EXAMPLE, SCIM_GROUP_LIST_EXAMPLE } from "./examples";
import { groupsPage, groupResource as resourceOf } from "./groupLookup";
import { groupChangeOf, groupOfBody } from "./groupPatch";
import {
  groupPatchInput,
  SCIM_GROUP_INPUT_EXAMPLE,
  SCIM_GROUP_PATCH_EXAMPLE,
  scimGroupInput,
  scimGroupSchema,
} from "./groupWire";
import { getQuery, listQuery } from "./queryParams";
import {
  groupPath,
  listResponseSchema,
  SCIM_ERRORS,
  SCIM_ROUTE,
  SCIM_WRITE_ERRORS,
  scimSuccess,
  scimUrl,
} from "./routeKit";
import { invalidValue, ScimError } from "./scimErrors";

/**
 * The SCIM Groups endpoints (RFC 7644 §3): Okta's Group Push and Entra ID's group provisioning.
 * A thin adapter over the groups service; members are users of the company.
 */
const groupIdParams = z.object({
  id: z.string().min(1).max(128).openapi({ description: "The group's id." }),
});

const groupNotFound = (id: string) =>
  new ScimError("not_found", `Group ${JSON.stringify(id.slice(0, 128))} not found.`);

/** The groups service's refusals as SCIM errors. */
const asScimGroups = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err: unknown) => {
    if (!(err instanceof GroupsError)) throw err;
    if (err.code === "name_taken") throw new ScimError("conflict", err.message, "uniqueness");
    if (err.code === "invalid_members") throw invalidValue(err.message);
    if (err.code === "too_many_kept")
      throw new ScimError("invalid_request", err.message, "tooMany");
    throw new ScimError("not_found", err.message);
  });

const groupResponse = (description: string, status?: number) =>
  scimSuccess(description, scimGroupSchema, {
    example: SCIM_GROUP_EXAMPLE,
    ...(status ? { status } : {}),
  });

const listGroups = defineRoute({
  ...SCIM_ROUTE,
  method: "get",
  path: "/scim/v2/Groups",
  operationId: "scimListGroups",
  summary: "SCIM: search or page the company's groups",
  description:
    "Filters: `eq` on `displayName` (case-insensitive), `externalId` and `id`, and " +
    '`members[value eq "<user id>"]` (Entra ID\'s membership check), joined by `and`. Ordered ' +
    "by creation.",
  query: listQuery,
  success: scimSuccess(
    "A ListResponse of groups.",
    listResponseSchema(scimGroupSchema, "ScimGroupList"),
    { example: SCIM_GROUP_LIST_EXAMPLE },
  ),
  errors: SCIM_ERRORS,
  handler: ({ query: q, principal, req }) => groupsPage(principal.companyId, req, q),
});

const getGroup = defineRoute({
  ...SCIM_ROUTE,
  method: "get",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimGetGroup",
  summary: "SCIM: one group, with its members unless excluded",
  params: groupIdParams,
  query: getQuery,
  success: groupResponse("The group."),
  errors: SCIM_ERRORS,
  handler: async ({ params, query: q, principal, req }) => {
    const group = await findGroup(principal.companyId, params.id);
    if (!group) throw groupNotFound(params.id);
    return resourceOf(req, principal.companyId, group, q);
  },
});

const createGroupRoute = defineRoute({
  ...SCIM_ROUTE,
  method: "post",
  path: "/scim/v2/Groups",
  operationId: "scimCreateGroup",
  summary: "SCIM: create a group (Okta's Group Push, Entra ID's group provisioning)",
  description:
    "A name another group of the company has (any case) is 409 `uniqueness`; a member that is " +
    "no user of the company is 400 `invalidValue`, and nothing is created.",
  body: scimGroupInput,
  bodyExample: { ...SCIM_GROUP_INPUT_EXAMPLE, members: [] },
  success: groupResponse("The group.", 201),
  errors: SCIM_WRITE_ERRORS,
  handler: async ({ body, principal, req, origin }) => {
    const { fields, members } = groupOfBody(body);
    const group = await asScimGroups(
      createGroup(principal.companyId, fields, members ?? [], origin),
    );
    return new Reply(await resourceOf(req, principal.companyId, group, {}, "omit"), {
      status: 201,
      headers: { Location: scimUrl(req, groupPath(group.id)) },
    });
  },
});

const replaceGroup = defineRoute({
  ...SCIM_ROUTE,
  method: "put",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimReplaceGroup",
  summary: "SCIM: replace a group (name, externalId, and members when sent)",
  description:
    "`members` left out keeps the members (a rename must not drop thousands of them); `[]` " +
    "clears them. `externalId` left out is cleared.",
  params: groupIdParams,
  body: scimGroupInput,
  bodyExample: { ...SCIM_GROUP_INPUT_EXAMPLE, members: [] },
  success: groupResponse("The group as it is now."),
  errors: SCIM_WRITE_ERRORS,
  handler: async ({ params, body, principal, req, origin }) => {
    const { fields, members } = groupOfBody(body);
    const group = await asScimGroups(
      updateGroup(
        principal.companyId,
        params.id,
        { ...fields, ...(members ? { members: { set: members } } : {}) },
        origin,
      ),
    );
    return resourceOf(req, principal.companyId, group, {}, "omit");
  },
});

const patchGroup = defineRoute({
  ...SCIM_ROUTE,
  method: "patch",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimPatchGroup",
  summary: "SCIM: change a group's name or members (RFC 7644 PATCH)",
  description:
    'Okta renames with `{"op":"replace","value":{"id":…,"displayName":…}}` and adds and ' +
    'removes members with `members` and `members[value eq "<id>"]`; Entra ID removes with ' +
    '`{"op":"Remove","path":"members","value":[{"value":"<id>"}]}`. A change to what is there ' +
    "already changes nothing.",
  params: groupIdParams,
  body: groupPatchInput,
  bodyExample: {
    schemas: SCIM_GROUP_PATCH_EXAMPLE.schemas,
    Operations: [{ op: "replace", value: { displayName: "Deck crew" } }],
  },
  success: groupResponse("The group as it is now."),
  errors: SCIM_WRITE_ERRORS,
  handler: async ({ params, body, principal, req, origin }) => {
    const change = groupChangeOf(body);
    const group = await asScimGroups(updateGroup(principal.companyId, params.id, change, origin));
    return resourceOf(req, principal.companyId, group, {}, "omit");
  },
});

const deleteGroupRoute = defineRoute({
  ...SCIM_ROUTE,
  method: "delete",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimDeleteGroup",
  summary: "SCIM: delete a group (its members stay users)",
  params: groupIdParams,
  success: scimSuccess("Deleted.", scimGroupSchema, { status: 204 }),
  errors: SCIM_ERRORS,
  handler: async ({ params, principal, origin }) => {
    await asScimGroups(deleteGroup(principal.companyId, params.id, origin));
    return new Reply(null, { status: 204 });
  },
});

export const GROUP_ROUTES: AnyRoute[] = [
  listGroups,
  getGroup,
  createGroupRoute,
  replaceGroup,
  patchGroup,
  deleteGroupRoute,
];
