import { publicBaseUrl } from "../http/baseUrl";
import { defineRoute, Reply, type AnyRoute, type Method } from "../http/route";
import { jsonObject, z } from "../http/zod";
import { ScimError, scimErrorSchema } from "./errors";
import { FilterSyntaxError, MAX_FILTER_LENGTH, parseFilter } from "./filter";
import {
  listResponse,
  listResponseSchema,
  SCIM_BASE,
  SCIM_ERRORS,
  SCIM_ROUTE,
  scimSuccess,
} from "./routeKit";
import { ENTERPRISE_ATTRIBUTES, URN, USER_ATTRIBUTES } from "./schema";

/** The discovery endpoints of RFC 7644 §4, and Groups, which this service provider does not support. */
export const MAX_RESULTS = 200;

/** Where the examples of the document say the API is. */
const EXAMPLE_BASE = "https://europe-west1-my-project.cloudfunctions.net/companyApi";
const at = (base: string, path: string) => `${base}${SCIM_BASE}${path}`;

/** The discovery documents, for an API reached at `base` (publicBaseUrl). */
function serviceProviderConfig(base: string) {
  return {
    schemas: [URN.serviceProviderConfig],
    documentationUri: `${base}/v1/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "OAuth Bearer Token",
        description:
          "A company API key with the provisioning scope, sent as `Authorization: Bearer csa_…`.",
        specUri: "https://www.rfc-editor.org/rfc/rfc6750",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: at(base, "/ServiceProviderConfig") },
  };
}

const userResourceType = (base: string) => ({
  schemas: [URN.resourceType],
  id: "User",
  name: "User",
  endpoint: "/Users",
  description:
    "The company's users. Groups are not supported: there is no Group resource type (a Groups search answers an empty list, a write 501).",
  schema: URN.user,
  schemaExtensions: [{ schema: URN.enterprise, required: false }],
  meta: { resourceType: "ResourceType", location: at(base, "/ResourceTypes/User") },
});

const schemaDocuments = (base: string) =>
  [
    { id: URN.user, name: "User", description: "User account", attributes: USER_ATTRIBUTES },
    {
      id: URN.enterprise,
      name: "EnterpriseUser",
      description:
        "Enterprise user: the department (matched to the company's), and the other attributes stored as sent",
      attributes: ENTERPRISE_ATTRIBUTES,
    },
  ].map((s) => ({
    schemas: [URN.schema],
    ...s,
    meta: { resourceType: "Schema", location: at(base, `/Schemas/${s.id}`) },
  }));

const notFound = (what: string) => new ScimError("not_found", `No ${what}.`);

function groupFilter(filter: string): void {
  try {
    parseFilter(filter);
  } catch (err) {
    if (err instanceof FilterSyntaxError)
      throw new ScimError(
        "invalid_request",
        `The filter is not valid: ${err.message}`,
        "invalidFilter",
      );
    throw err;
  }
}

const discovery = { ...SCIM_ROUTE, errors: SCIM_ERRORS };

export const DISCOVERY_ROUTES: AnyRoute[] = [
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/ServiceProviderConfig",
    operationId: "scimServiceProviderConfig",
    summary: "SCIM: the features this service provider supports",
    success: scimSuccess(
      "PATCH and filters supported; bulk, sort, ETags and password changes not.",
      jsonObject(),
      { example: serviceProviderConfig(EXAMPLE_BASE) },
    ),
    handler: async ({ req }) => serviceProviderConfig(publicBaseUrl(req)),
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/ResourceTypes",
    operationId: "scimListResourceTypes",
    summary: "SCIM: resource types (User only)",
    success: scimSuccess(
      "A ListResponse of the User resource type.",
      listResponseSchema(jsonObject(), "ScimResourceTypeList"),
      {
        example: listResponse([userResourceType(EXAMPLE_BASE)]),
      },
    ),
    handler: async ({ req }) => listResponse([userResourceType(publicBaseUrl(req))]),
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/ResourceTypes/{id}",
    operationId: "scimGetResourceType",
    summary: "SCIM: one resource type",
    params: z.object({ id: z.string().max(200) }),
    success: scimSuccess("The resource type.", jsonObject(), {
      example: userResourceType(EXAMPLE_BASE),
    }),
    handler: async ({ req, params }) => {
      if (params.id !== "User")
        throw notFound(`resource type "${params.id.slice(0, 100)}" (only User is supported)`);
      return userResourceType(publicBaseUrl(req));
    },
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/Schemas",
    operationId: "scimListSchemas",
    summary: "SCIM: the User schema and the enterprise extension, as implemented",
    success: scimSuccess(
      "A ListResponse of schemas.",
      listResponseSchema(jsonObject(), "ScimSchemaList"),
      { example: listResponse(schemaDocuments(EXAMPLE_BASE)) },
    ),
    handler: async ({ req }) => listResponse(schemaDocuments(publicBaseUrl(req))),
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/Schemas/{id}",
    operationId: "scimGetSchema",
    summary: "SCIM: one schema, by its URN",
    params: z.object({ id: z.string().max(200) }),
    success: scimSuccess("The schema.", jsonObject(), {
      example: schemaDocuments(EXAMPLE_BASE)[1],
    }),
    handler: async ({ req, params }) => {
      const found = schemaDocuments(publicBaseUrl(req)).find((s) => s.id === params.id);
      if (!found) throw notFound(`schema "${params.id.slice(0, 100)}"`);
      return found;
    },
  }),
];

/**
 * Groups are not provisioned here. Entra ID's default mapping still searches them
 * (`GET /Groups?filter=displayName eq "…"`) before it would create one: that search answers an
 * empty ListResponse, so the cycle goes on; one group is 404, and every write 501 Not
 * Implemented (RFC 7644 §3.12), all as SCIM errors. ResourceTypes and Schemas list no Group
 * resource type, which is what is served.
 */
const GROUPS_UNSUPPORTED =
  "Groups are not supported by this service provider (Users only): turn group provisioning off in the identity provider.";
const GROUPS_NOT_IMPLEMENTED = { schemas: [URN.error], status: "501", detail: GROUPS_UNSUPPORTED };
const notImplemented = () => new Reply(GROUPS_NOT_IMPLEMENTED, { status: 501 });
const groupId = z.object({ id: z.string().max(200) });

const GROUP_WRITES: Array<[Method, string]> = [
  ["post", "/scim/v2/Groups"],
  ["put", "/scim/v2/Groups/{id}"],
  ["patch", "/scim/v2/Groups/{id}"],
  ["delete", "/scim/v2/Groups/{id}"],
];

export const GROUP_ROUTES: AnyRoute[] = [
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/Groups",
    operationId: "scimListGroups",
    summary: "SCIM: search Groups (always an empty ListResponse)",
    query: z.looseObject({
      filter: z.string().optional().openapi({ maxLength: MAX_FILTER_LENGTH }),
      startIndex: z.string().optional(),
      count: z.string().optional(),
    }),
    success: scimSuccess(
      "An empty ListResponse: no groups are provisioned here.",
      listResponseSchema(jsonObject(), "ScimGroupList"),
      { example: listResponse([]) },
    ),
    handler: async ({ query }) => {
      // A malformed filter is still answered as one, so a client's mistake is not hidden.
      if (query.filter !== undefined) groupFilter(query.filter);
      return listResponse([]);
    },
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/Groups/{id}",
    operationId: "scimGetGroup",
    summary: "SCIM: one Group (always 404)",
    params: groupId,
    // Documented as what it always answers: the 404 below (the error response of that status replaces this entry).
    success: scimSuccess("Always 404: there are no groups.", scimErrorSchema, { status: 404 }),
    handler: async () => {
      throw notFound(`such group. ${GROUPS_UNSUPPORTED}`);
    },
  }),
  ...GROUP_WRITES.map(([method, path]) =>
    defineRoute({
      ...discovery,
      method,
      path,
      operationId: `scimGroups${method[0].toUpperCase()}${method.slice(1)}`,
      summary: "SCIM: Group writes are not implemented (501)",
      ...(path.endsWith("}") ? { params: groupId } : {}),
      success: scimSuccess("Always 501 Not Implemented, as a SCIM error.", scimErrorSchema, {
        status: 501,
        example: GROUPS_NOT_IMPLEMENTED,
      }),
      handler: async () => notImplemented(),
    }),
  ),
];
