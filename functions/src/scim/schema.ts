/**
 * The SCIM schemas this service provider implements (RFC 7643): the User resource's core
 * attributes and the enterprise extension's `department`. One table serves both the `/Schemas`
 * endpoint and the reading of requests (which attribute a path names, its type, whether it may
 * be written).
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

/** Attributes the app has no field for: kept as sent (the user's `scimProfile`) so they read back as sent. */
const AS_SENT = "Stored and returned as sent (at most 16 KiB for all such attributes of a user).";
const PROFILE_TEXT: Array<[string, string]> = [
  ["nickName", "The casual name of the user."],
  ["profileUrl", "A URL of the user's online profile."],
  ["title", "The user's title, e.g. `Chief Officer`."],
  ["userType", "The user's relation to the company, e.g. `Employee` or `Contractor`."],
  ["preferredLanguage", "The user's preferred language, e.g. `nb-NO`."],
  ["locale", "The user's locale, e.g. `nb-NO`."],
  ["timezone", "The user's time zone, e.g. `Europe/Oslo`."],
];
const ADDRESS_PARTS: Array<[string, string]> = [
  ["formatted", "The full address."],
  ["streetAddress", "Street, house number, etc."],
  ["locality", "City or locality."],
  ["region", "State or region."],
  ["postalCode", "Postal code."],
  ["country", "Country (ISO 3166-1 alpha-2, as sent)."],
];
const ENTERPRISE_TEXT: Array<[string, string]> = [
  ["employeeNumber", "The user's number in the company's HR system."],
  ["costCenter", "The user's cost center."],
  ["organization", "The user's organization."],
  ["division", "The user's division."],
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
    "The identity provider's unique name of the user, returned as sent. Unique within the company, compared case-insensitively; a user removed from the roster frees it. A user may have no address at all (then no sign-in account until one is sent; the user takes a seat). When it is an e-mail address and no `emails` are sent, it is also the sign-in address, and follows a userName change until `emails` are first sent; otherwise changing userName never changes the sign-in address.",
    { required: true, uniqueness: "server" },
  ),
  attr("name", "complex", "The components of the user's name.", {
    subAttributes: [
      attr("formatted", "string", "The full name."),
      attr("familyName", "string", "Family name."),
      attr("givenName", "string", "Given name."),
      attr("middleName", "string", "Middle name(s); stored and returned as sent."),
      attr("honorificPrefix", "string", "E.g. `Ms.`; stored and returned as sent."),
      attr("honorificSuffix", "string", "E.g. `III`; stored and returned as sent."),
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
    "E-mail addresses, returned as sent. The primary (else work, else first) value is the user's sign-in address: changing it changes the address they sign in with (left out, the rest of the change applying, for the owner and Key Users: their address is changed in the app). One address belongs to one user of the service; on POST without userName, that address is the userName.",
    {
      multiValued: true,
      subAttributes: multiValueSubs("The e-mail address.", ["work"]),
    },
  ),
  ...PROFILE_TEXT.map(([name, description]) =>
    name === "profileUrl"
      ? attr(name, "reference", `${description} ${AS_SENT}`, { referenceTypes: ["external"] })
      : attr(name, "string", `${description} ${AS_SENT}`),
  ),
  attr("phoneNumbers", "complex", `Telephone numbers. ${AS_SENT}`, {
    multiValued: true,
    subAttributes: multiValueSubs("The telephone number.", [
      "work",
      "mobile",
      "fax",
      "home",
      "pager",
      "other",
    ]),
  }),
  attr("addresses", "complex", `Physical mailing addresses. ${AS_SENT}`, {
    multiValued: true,
    subAttributes: [
      ...ADDRESS_PARTS.map(([name, description]) => attr(name, "string", description)),
      attr("type", "string", "A label for the address's function.", {
        canonicalValues: ["work", "home", "other"],
      }),
      attr("primary", "boolean", "Whether this is the primary address."),
    ],
  }),
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
  attr(
    "groups",
    "complex",
    'The groups the user is a member of, written through the Group resource (`members`); not returned here: `GET /Groups?filter=members[value eq "<id>"]` finds them. Read-only.',
    {
      multiValued: true,
      mutability: "readOnly",
      returned: "never",
      subAttributes: [
        attr("value", "string", "The group's id.", { mutability: "readOnly", caseExact: true }),
        attr("$ref", "reference", "The group's address.", {
          mutability: "readOnly",
          referenceTypes: ["User", "Group"],
        }),
        attr("display", "string", "The group's display name.", { mutability: "readOnly" }),
        attr("type", "string", "How the user belongs to the group.", {
          mutability: "readOnly",
          canonicalValues: ["direct", "indirect"],
        }),
      ],
    },
  ),
];

export const ENTERPRISE_ATTRIBUTES: AttributeDef[] = [
  attr(
    "department",
    "string",
    "The name of one of the company's departments, matched case-insensitively after trimming. A name no department has is accepted: a new user then has no department (an existing one keeps theirs), the name is kept beside them and returned as sent, and they get the department once one of that name is created or renamed.",
  ),
  ...ENTERPRISE_TEXT.map(([name, description]) =>
    attr(name, "string", `${description} ${AS_SENT}`),
  ),
  attr("manager", "complex", `The user's manager. ${AS_SENT}`, {
    subAttributes: [
      attr(
        "value",
        "string",
        "The manager's id, as the identity provider sends it (not checked).",
        {
          caseExact: true,
        },
      ),
      attr("$ref", "reference", "The manager's address, as sent.", {
        referenceTypes: ["User"],
      }),
      attr("displayName", "string", "The manager's name, as sent."),
    ],
  }),
];

/** The Group resource (RFC 7643 §4.2), as Okta's Group Push and Entra ID's group provisioning use it. */
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
    "The group's name, as sent; unique within the company, compared case-insensitively. The company's group map may give its members an app role or a department.",
    { required: true, uniqueness: "server" },
  ),
  attr(
    "members",
    "complex",
    "The group's members: users of the company. Left out of a PUT, they are kept; `[]` clears them.",
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
