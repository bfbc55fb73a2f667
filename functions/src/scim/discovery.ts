import { publicBaseUrl } from "../http/context";
import { defineRoute, type AnyRoute } from "../http/route";
import { jsonObject, z } from "../http/zod";
import { GROUP_ATTRIBUTES } from "./groupWire";
import {
  listResponse,
  listResponseSchema,
  MAX_RESULTS,
  SCIM_BASE,
  SCIM_ERRORS,
  SCIM_ROUTE,
  scimSuccess,
  servedAttribute,
  URN,
} from "./routeKit";
import { ScimError } from "./scimErrors";
import { ENTERPRISE_ATTRIBUTES, USER_ATTRIBUTES } from "./userSchema";

/** The discovery endpoints of RFC 7644 §4. */

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

const resourceTypes = (base: string) => [
  {
    schemas: [URN.resourceType],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "The company's users.",
    schema: URN.user,
    schemaExtensions: [{ schema: URN.enterprise, required: false }],
    meta: { resourceType: "ResourceType", location: at(base, "/ResourceTypes/User") },
  },
  {
    schemas: [URN.resourceType],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description:
      "Groups the identity provider pushes, with their members; the company's group map may " +
      "give members an app role or a department.",
    schema: URN.group,
    meta: { resourceType: "ResourceType", location: at(base, "/ResourceTypes/Group") },
  },
];

const schemaDocuments = (base: string) =>
  [
    { id: URN.user, name: "User", description: "User account", attributes: USER_ATTRIBUTES },
    {
      id: URN.enterprise,
      name: "EnterpriseUser",
      description:
        "Enterprise user: the department (matched to the company's), and the other attributes " +
        "stored as sent",
      attributes: ENTERPRISE_ATTRIBUTES,
    },
    { id: URN.group, name: "Group", description: "Group", attributes: GROUP_ATTRIBUTES },
  ].map((s) => ({
    schemas: [URN.schema],
    ...s,
    attributes: s.attributes.map(servedAttribute),
    meta: { resourceType: "Schema", location: at(base, `/Schemas/${s.id}`) },
  }));

const notFound = (what: string) => new ScimError("not_found", `No ${what}.`);

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
    summary: "SCIM: resource types (User and Group)",
    success: scimSuccess(
      "A ListResponse of the User and Group resource types.",
      listResponseSchema(jsonObject(), "ScimResourceTypeList"),
      { example: listResponse(resourceTypes(EXAMPLE_BASE)) },
    ),
    handler: async ({ req }) => listResponse(resourceTypes(publicBaseUrl(req))),
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/ResourceTypes/{id}",
    operationId: "scimGetResourceType",
    summary: "SCIM: one resource type",
    params: z.object({ id: z.string().max(200) }),
    success: scimSuccess("The resource type.", jsonObject(), {
      example: resourceTypes(EXAMPLE_BASE)[0],
    }),
    handler: async ({ req, params }) => {
      const found = resourceTypes(publicBaseUrl(req)).find((t) => t.id === params.id);
      if (!found) throw notFound(`resource type "${params.id.slice(0, 100)}" (User and Group are)`);
      return found;
    },
  }),
  defineRoute({
    ...discovery,
    method: "get",
    path: "/scim/v2/Schemas",
    operationId: "scimListSchemas",
    summary: "SCIM: the User and Group schemas and the enterprise extension, as implemented",
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
