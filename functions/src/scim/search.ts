import type { Request } from "express";
import { defineRoute, type AnyRoute } from "../http/route";
import { z } from "../http/zod";
import { departmentsOf } from "../repos/companies";
import { rosterWindow } from "../repos/users";
import { SCIM_USER_LIST_EXAMPLE } from "./examples";
import { MAX_FILTER_LENGTH } from "./filter";
import { project } from "./projection";
import { userResource } from "./resource";
import {
  listResponse,
  listResponseSchema,
  MAX_RESULTS,
  pageWindow,
  SCIM_ERRORS,
  SCIM_ROUTE,
  scimSuccess,
  userUrl,
} from "./routeKit";
import { invalidValue } from "./scimErrors";
import { userTerms } from "./userFilter";
import { usersMatching } from "./userLookup";
import { scimUserSchema } from "./userWire";

/**
 * What a listing asks for, from a GET's query or a POST /.search body (RFC 7644 §3.4.2, §3.4.3).
 */
export interface ListRequest {
  filter?: string;
  startIndex?: number;
  count?: number;
  attributes?: string;
  excludedAttributes?: string;
}

/**
 * One page of the company's users as a ListResponse: the GET listing and POST /.search share it.
 */
export async function listUsersPage(companyId: string, req: Request, q: ListRequest) {
  const { startIndex, count, page: window } = pageWindow(q);
  const terms = q.filter === undefined ? null : userTerms(q.filter);
  const [page, departments] = await Promise.all([
    terms
      ? usersMatching(companyId, terms).then((all) => ({ total: all.length, users: window(all) }))
      : rosterWindow(companyId, startIndex - 1, count),
    departmentsOf(companyId),
  ]);
  return listResponse(
    page.users.map((u) =>
      project(userResource(userUrl(req, u.id), u, departments), q.attributes, q.excludedAttributes),
    ),
    page.total,
    startIndex,
  );
}

export const LIST_SUCCESS = scimSuccess(
  "A ListResponse of users, ordered by creation.",
  listResponseSchema(scimUserSchema, "ScimUserList"),
  { example: SCIM_USER_LIST_EXAMPLE },
);

const SEARCH_REQUEST = "urn:ietf:params:scim:api:messages:2.0:SearchRequest";
const nineDigits = z.number().int().min(-999_999_999).max(999_999_999).optional();
const names = (description: string) =>
  z
    .union([z.array(z.string().max(200)).max(100), z.string().max(2000)])
    .optional()
    .openapi({ description });

const searchRequest = z
  .looseObject({
    schemas: z
      .array(z.string().max(200))
      .max(10)
      .optional()
      .openapi({
        description: `\`["${SEARCH_REQUEST}"]\` (optional here).`,
      }),
    filter: z.string().optional().openapi({
      maxLength: MAX_FILTER_LENGTH,
      description: "As the `filter` of `GET /scim/v2/Users`.",
    }),
    startIndex: nineDigits.openapi({ description: "1-based; values below 1 count as 1." }),
    count: nineDigits.openapi({
      description: `Results per page (default and maximum ${MAX_RESULTS}; negative counts as 0).`,
    }),
    attributes: names("Attribute names (an array, or comma-separated) to return."),
    excludedAttributes: names("Attribute names (an array, or comma-separated) to leave out."),
    sortBy: z.unknown().optional().openapi({
      description: "Not supported (`sort.supported` is false): a request naming it is a 400.",
    }),
    sortOrder: z.unknown().optional().openapi({ description: "Not supported, as `sortBy`." }),
  })
  .openapi("ScimSearchRequest", {
    description: "RFC 7644 §3.4.3 SearchRequest: a listing whose parameters travel in the body.",
  });

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(",") : v);

/** POST …/.search: the listing of `GET /scim/v2/Users` with its parameters in the body. */
type Page = (companyId: string, req: Request, q: ListRequest) => Promise<unknown>;

/** A POST …/.search route answering with `page`. */
export const searchRoute = (
  path: string,
  operationId: string,
  summary: string,
  description: string,
  page: Page,
  success = LIST_SUCCESS,
): AnyRoute =>
  defineRoute({
    ...SCIM_ROUTE,
    method: "post",
    path,
    operationId,
    summary,
    description: `${description} Sorting is not supported.`,
    body: searchRequest,
    bodyExample: { schemas: [SEARCH_REQUEST], filter: 'userName eq "nina.holm@example.com"' },
    success,
    errors: [...SCIM_ERRORS, "payload_too_large", "unsupported_media_type"],
    handler: async ({ body, principal, req }) => {
      if (body.sortBy !== undefined || body.sortOrder !== undefined)
        throw invalidValue("Sorting is not supported: leave out sortBy and sortOrder.");
      return page(principal.companyId, req, {
        filter: body.filter,
        startIndex: body.startIndex,
        count: body.count,
        attributes: joined(body.attributes),
        excludedAttributes: joined(body.excludedAttributes),
      });
    },
  });

export const SEARCH_ROUTES: AnyRoute[] = [
  searchRoute(
    "/scim/v2/Users/.search",
    "scimSearchUsers",
    "SCIM: search the company's users with a SearchRequest body (RFC 7644 §3.4.3)",
    "Answers exactly as `GET /scim/v2/Users` with the same parameters.",
    listUsersPage,
  ),
];
