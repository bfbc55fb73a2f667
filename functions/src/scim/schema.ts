/**
 * The SCIM schemas this service provider implements (RFC 7643): the User resource's core
 * attributes and the enterprise extension's `department`. One table serves both the `/Schemas`
 * endpoint and the reading of requests (which attribute a path names, its type, whether it may
 * be written).
 */
export const URN = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  enterprise: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
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
  subAttributes?: AttributeDef[];
}

function attr(
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

const multiValueSubs = (valueDescription: string, types: string[]) => [
  attr("value", "string", valueDescription),
  attr("display", "string", "A human-readable name, for display only."),
  attr("type", "string", "A label for the value's function.", { canonicalValues: types }),
  attr(
    "primary",
    "boolean",
    'Whether this is the primary value (`true` or `false`; the strings "True" and "False" are accepted too).',
  ),
];

export const USER_ATTRIBUTES: AttributeDef[] = [
  attr("id", "string", "The user's id in this service (also its sign-in account's uid).", {
    caseExact: true,
    mutability: "readOnly",
    returned: "always",
    uniqueness: "server",
  }),
  attr("externalId", "string", "The identity provider's id of the user.", { caseExact: true }),
  attr(
    "userName",
    "string",
    "The user's e-mail address, which is also their sign-in address: stored lower-cased, unique across the whole service.",
    { required: true, uniqueness: "server" },
  ),
  attr("name", "complex", "The components of the user's name.", {
    subAttributes: [
      attr("formatted", "string", "The full name."),
      attr("familyName", "string", "Family name."),
      attr("givenName", "string", "Given name."),
    ],
  }),
  attr(
    "displayName",
    "string",
    "The name shown in the app. When absent, the formatted name, else given and family name, else the e-mail address.",
  ),
  attr(
    "emails",
    "complex",
    "E-mail addresses: one work address, equal to userName. Writes are accepted and do not change the sign-in address (change userName for that); on POST without userName, the primary (or work) address is the userName.",
    {
      multiValued: true,
      subAttributes: multiValueSubs("The e-mail address.", ["work"]),
    },
  ),
  attr(
    "active",
    "boolean",
    "false: deactivated (sign-in disabled, seat freed, records kept); true: takes a seat.",
  ),
  attr(
    "roles",
    "complex",
    "The primary (else first) value is mapped to an app role by the company's role map; unmapped values give `standard`, elevated roles are never granted. Returned as the app role.",
    {
      multiValued: true,
      subAttributes: multiValueSubs("The role value.", []),
    },
  ),
  attr("groups", "complex", "Not supported: this service has no Groups.", {
    multiValued: true,
    mutability: "readOnly",
  }),
];

export const ENTERPRISE_ATTRIBUTES: AttributeDef[] = [
  attr(
    "department",
    "string",
    "The name of one of the company's departments (matched case-insensitively after trimming); an unknown name is refused.",
  ),
];

/** Attributes every resource has and no request may set (RFC 7643 §3.1). */
export const COMMON_READ_ONLY = ["id", "meta", "schemas"];

const find = (defs: AttributeDef[], name: string) =>
  defs.find((d) => d.name.toLowerCase() === name.toLowerCase());

/** The attribute a path's name denotes, and its schema; `null` for names no schema here defines. */
export function attributeOf(
  uri: string | undefined,
  name: string,
): { schema: "core" | "enterprise"; def: AttributeDef } | null {
  const inUri = uri?.toLowerCase();
  if (inUri === undefined || inUri === URN.user.toLowerCase()) {
    const core = find(USER_ATTRIBUTES, name);
    if (core) return { schema: "core", def: core };
  }
  // The enterprise extension's attributes are also found by bare name (some clients omit the URN).
  if (inUri === undefined || inUri === URN.enterprise.toLowerCase()) {
    const enterprise = find(ENTERPRISE_ATTRIBUTES, name);
    if (enterprise) return { schema: "enterprise", def: enterprise };
  }
  return null;
}

export const subAttributeOf = (def: AttributeDef, name: string) =>
  find(def.subAttributes ?? [], name);
