import { defineRoute, Reply, type AnyRoute } from "../http/route";
import { z } from "../http/zod";
import { departmentsOf } from "../repos/companies";
import { findOnRoster } from "../repos/users";
import { inviteUser } from "../services/users/invite";
import { removeUser, updateProvisionedUser, type UserPatch } from "../services/users/lifecycle";
import { applyPatch, stateFromBody, type State } from "./assign";
import { SCIM_PATCH_EXAMPLE, SCIM_USER_EXAMPLE, SCIM_USER_INPUT_EXAMPLE } from "./examples";
import { project } from "./projection";
import { getQuery, listQuery } from "./queryParams";
import { newUserOf, patchBetween, scimDepartmentOf, stateOf, userResource } from "./resource";
import { SCIM_ERRORS, SCIM_ROUTE, SCIM_WRITE_ERRORS, scimSuccess, userUrl } from "./routeKit";
import { asScim, ScimError } from "./scimErrors";
import { LIST_SUCCESS, listUsersPage } from "./search";
import { patchOpInput, scimUserInput, scimUserSchema } from "./userWire";

/**
 * The SCIM Users endpoints: a thin adapter over the users service (the same seat rules, role
 * mapping, audit and sign-in account handling as /v1/users) and the pure SCIM core (filter,
 * PATCH, resource mapping).
 */
const userIdParams = z.object({
  id: z.string().min(1).max(128).openapi({ description: "The SCIM resource id (the user's id)." }),
});

const userNotFound = (id: string) =>
  new ScimError("not_found", `User ${JSON.stringify(id.slice(0, 128))} not found.`);

const scimUserResponse = (description: string, extra: Parameters<typeof scimSuccess>[2] = {}) =>
  scimSuccess(description, scimUserSchema, { example: SCIM_USER_EXAMPLE, ...extra });

const listUsers = defineRoute({
  ...SCIM_ROUTE,
  method: "get",
  path: "/scim/v2/Users",
  operationId: "scimListUsers",
  summary: "SCIM: search or page the company's users",
  description:
    "Removed users never appear. An unmatched filter answers 200 with an empty ListResponse.",
  query: listQuery,
  success: LIST_SUCCESS,
  errors: SCIM_ERRORS,
  handler: ({ query, principal, req }) => listUsersPage(principal.companyId, req, query),
});

const getUser = defineRoute({
  ...SCIM_ROUTE,
  method: "get",
  path: "/scim/v2/Users/{id}",
  operationId: "scimGetUser",
  summary: "SCIM: one user",
  params: userIdParams,
  query: getQuery,
  success: scimUserResponse(
    "The user (only the attributes asked for, when `attributes` or `excludedAttributes` is given).",
  ),
  errors: SCIM_ERRORS,
  handler: async ({ params, query: q, principal, req }) => {
    const { companyId } = principal;
    const [user, departments] = await Promise.all([
      findOnRoster(companyId, params.id),
      departmentsOf(companyId),
    ]);
    if (!user) throw userNotFound(params.id);
    return project(
      userResource(userUrl(req, user.id), user, departments),
      q.attributes,
      q.excludedAttributes,
    );
  },
});

const createUser = defineRoute({
  ...SCIM_ROUTE,
  method: "post",
  path: "/scim/v2/Users",
  operationId: "scimCreateUser",
  summary: "SCIM: provision a user (silent invite, takes a seat unless created inactive)",
  description:
    "As `POST /v1/users`: the sign-in account (no password, no e-mail sent) and the user, " +
    "`provisioned_by: scim`. An e-mail address any user " +
    "already has is 409 `uniqueness`; no free seat is 429 with `Retry-After` naming the " +
    "capacity (retried by the provider), and nothing is created.",
  body: scimUserInput,
  bodyExample: SCIM_USER_INPUT_EXAMPLE,
  success: scimUserResponse("The provisioned user.", {
    status: 201,
    headers: { Location: "The user's address: `…/scim/v2/Users/{id}`." },
  }),
  errors: [...SCIM_WRITE_ERRORS, "seats_unavailable"],
  handler: async ({ body, principal, req, origin }) => {
    const { companyId } = principal;
    const input = newUserOf(stateFromBody(body));
    const user = await asScim(
      inviteUser(companyId, { ...input, provisionedBy: "scim" }, origin, "record"),
    );
    const location = userUrl(req, user.id);
    const resource = userResource(location, user, await departmentsOf(companyId));
    return new Reply(resource, {
      status: 201,
      headers: { Location: location },
    });
  },
});

/**
 * Reads the user, derives the change from its SCIM state, and applies it through the users service.
 */
function changeRoute(
  method: "put" | "patch",
  describe: { operationId: string; summary: string; description: string },
  next: (before: State, body: unknown, sent: Set<string>) => State,
): AnyRoute {
  return defineRoute({
    ...SCIM_ROUTE,
    ...describe,
    method,
    path: "/scim/v2/Users/{id}",
    params: userIdParams,
    body: method === "put" ? scimUserInput : patchOpInput,
    bodyExample: method === "put" ? SCIM_USER_INPUT_EXAMPLE : SCIM_PATCH_EXAMPLE,
    success: scimUserResponse("The user as it is now."),
    errors: [...SCIM_WRITE_ERRORS, "seats_unavailable"],
    handler: async ({ params, body, principal, req, origin }) => {
      const { companyId } = principal;
      const [current, departments] = await Promise.all([
        findOnRoster(companyId, params.id),
        departmentsOf(companyId),
      ]);
      if (!current) throw userNotFound(params.id);
      const before = stateOf(current, scimDepartmentOf(current, departments));
      const sent = new Set<string>();
      const after = next(before, body, sent);
      const patch: UserPatch = patchBetween(before, after, {
        sent,
        addressFromUserName: current.addressFromUserName,
      });
      // An owner's or Key User's address is the app's: that part alone is refused (audited), the
      // rest applies.
      const { user, refusedAddressOf } = await asScim(
        updateProvisionedUser(companyId, params.id, patch, origin, "record"),
      );
      const resource = userResource(userUrl(req, user.id), user, departments);
      if (!refusedAddressOf) return resource;
      return new Reply(resource, {
        refusedChange: { action: "user.address_change_refused", uid: refusedAddressOf },
      });
    },
  });
}

const replaceUser = changeRoute(
  "put",
  {
    operationId: "scimReplaceUser",
    summary: "SCIM: replace a user",
    description:
      "A full replace: attributes left out are cleared, except read-only ones, `active` and " +
      "`externalId` (kept), and `roles` and the department, which are kept unless " +
      "the company made the identity provider their source.",
  },
  // Okta's PUT sends the profile without the `externalId` its POST sent: left out, it is kept (null
  // clears it).
  (before, body, sent) => {
    const after = stateFromBody(body, sent);
    return after.externalId === undefined ? { ...after, externalId: before.externalId } : after;
  },
);

const patchUser = changeRoute(
  "patch",
  {
    operationId: "scimPatchUser",
    summary: "SCIM: change a user (RFC 7644 PATCH)",
    description:
      "`active` false deactivates exactly as `PATCH /v1/users/{id}` does (sign-in disabled, " +
      "seat freed, records kept); true reactivates, taking a seat. " +
      'Paths such as `name.givenName`, `emails[type eq "work"].value` and the enterprise ' +
      "`department` URN are accepted, with or without `path`.",
  },
  (before, body, sent) => applyPatch(before, body, sent),
);

const deleteUser = defineRoute({
  ...SCIM_ROUTE,
  method: "delete",
  path: "/scim/v2/Users/{id}",
  operationId: "scimDeleteUser",
  summary: "SCIM: remove a user from the roster (as DELETE /v1/users/{id})",
  description:
    "Deactivated if needed, then removed: the sign-in account is deleted (the address and " +
    "userName are free for a later POST, which creates a new user), " +
    "records kept, seat freed. 204; an unknown or already removed id is 404.",
  params: userIdParams,
  success: scimSuccess("Removed.", scimUserSchema, { status: 204 }),
  errors: SCIM_ERRORS,
  handler: async ({ params, principal, origin }) => {
    const { companyId } = principal;
    // RFC 7644 §3.6: a deleted resource is 404 to every later request, a repeated DELETE included.
    if ((await asScim(removeUser(companyId, params.id, origin))) === "already")
      throw userNotFound(params.id);
    return new Reply(null, { status: 204 });
  },
});

export const USER_ROUTES: AnyRoute[] = [
  listUsers,
  getUser,
  createUser,
  replaceUser,
  patchUser,
  deleteUser,
];
