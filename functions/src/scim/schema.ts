/**
 * The SCIM schemas this service provider implements (RFC 7643): the URNs, the shape of an
 * attribute's definition, and the Group resource's attributes (the User's are in userSchema.ts).
 * The same definitions serve the `/Schemas` endpoint and the reading of requests (which
 * attribute a path names, its type, whether it may be written).
 */
export const URN = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  enterprise: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

export const SCIM_CONTENT_TYPE = "application/scim+json";

type Mutability = "readOnly" | "readWrite" | "immutable" | "writeOnly";

export interface AttributeDef {
  name: string;
  type: "string" | "boolean" | "complex" | "dateTime" | "reference";
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: "always" | "never" | "default" | "request";
  uniqueness: "none" | "server" | "global";
  canonicalValues?: string[];
  /** For `reference` attributes (RFC 7643 §7): the resource types, `external` or `uri`. */
  referenceTypes?: string[];
  subAttributes?: AttributeDef[];
  /** Kept in the user's `scimProfile` and read back as sent (the app has no field for it). */
  keptAsSent?: true;
}

export function attr(
  name: string,
  type: AttributeDef["type"],
  description: string,
  more: Partial<AttributeDef> = {},
): AttributeDef {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...more,
  };
}

export const multiValueSubs = (valueDescription: string, types: string[]) => [
  attr("value", "string", valueDescription),
  attr("display", "string", "A human-readable name, for display only."),
  attr("type", "string", "A label for the value's function.", { canonicalValues: types }),
  attr(
    "primary",
    "boolean",
    "Whether this is the primary value (`true` or `false`; " +
      'the strings "True" and "False" are accepted too).',
  ),
];

/** A definition as `/Schemas` serves it: without this service's own marks. */
export function servedAttribute(def: AttributeDef): AttributeDef {
  const served = { ...def };
  delete served.keptAsSent;
  if (def.subAttributes) served.subAttributes = def.subAttributes.map(servedAttribute);
  return served;
}

/** The Group resource (RFC 7643 §4.2), as Okta's Group Push and Entra ID's provisioning use it. */
export const GROUP_ATTRIBUTES: AttributeDef[] = [
  attr("id", "string", "The group's id in this service.", {
    caseExact: true,
    mutability: "readOnly",
    returned: "always",
    uniqueness: "server",
  }),
  attr("externalId", "string", "The identity provider's id of the group.", { caseExact: true }),
  attr(
    "displayName",
    "string",
    "The group's name, as sent; unique within the company, compared case-insensitively. " +
      "The company's group map may give its members an app role or a department.",
    { required: true, uniqueness: "server" },
  ),
  attr(
    "members",
    "complex",
    "The group's members: users of the company. Left out of a PUT, they are kept; `[]` clears " +
      "them.",
    {
      multiValued: true,
      subAttributes: [
        attr("value", "string", "The member's user id.", {
          caseExact: true,
          mutability: "immutable",
        }),
        attr("$ref", "reference", "The member's address.", {
          mutability: "immutable",
          referenceTypes: ["User"],
        }),
        attr("display", "string", "The member's display name.", { mutability: "readOnly" }),
        attr("type", "string", "The member's resource type.", {
          mutability: "immutable",
          canonicalValues: ["User"],
        }),
      ],
    },
  ),
];

/** Attributes every resource has and no request may set (RFC 7643 §3.1). */
export const COMMON_READ_ONLY = ["id", "meta", "schemas"];
