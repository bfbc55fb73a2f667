import { attr, multiValueSubs, URN, type AttributeDef } from "./routeKit";

/**
 * The SCIM User (RFC 7643 §4.1) and its enterprise extension as this service implements them:
 * the one description of each attribute. `/Schemas` serves it, requests are read by it
 * (assign.ts), the attributes kept as sent (profile.ts) are those it marks, and the wire
 * schemas (userWire.ts) are checked against it by test/unit/scimUserTable.test.ts.
 */
export const MAX_PROFILE_BYTES = 16 * 1024;
/** What the attributes the app has no field for have in common, in every document. */
export const AS_SENT =
  `Stored and returned as sent (at most ${MAX_PROFILE_BYTES / 1024} KiB ` +
  "for all such attributes of a user).";

/** An attribute the app has no field for: kept in the user's `scimProfile` as sent. */
const asSent = (def: AttributeDef): AttributeDef => ({
  ...def,
  description: `${def.description} ${AS_SENT}`,
  keptAsSent: true,
});

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
    "The identity provider's unique name of the user, returned as sent. Unique within the " +
      "company, compared case-insensitively; a user removed from the roster frees it. A user may " +
      "have no address at all (then no sign-in account until one is sent; the user takes a " +
      "seat). When it is an e-mail address and no `emails` are sent, it is also the sign-in " +
      "address, and follows a userName change until `emails` are first sent; otherwise changing " +
      "userName never changes the sign-in address.",
    { required: true, uniqueness: "server" },
  ),
  attr(
    "name",
    "complex",
    "The components of the user's name, as the identity provider sent them. A user without " +
      "them (created in the app, which keeps only a display name) is served with that name as " +
      "`formatted`, split into " +
      "`givenName` and `familyName` only when it is exactly two words (`Kari Nordmann`): the " +
      "parts of a longer name are not guessed, and an e-mail address is no name.",
    {
      subAttributes: [
        attr("formatted", "string", "The full name."),
        attr("familyName", "string", "Family name."),
        attr("givenName", "string", "Given name."),
        asSent(attr("middleName", "string", "Middle name(s).")),
        asSent(attr("honorificPrefix", "string", "E.g. `Ms.`.")),
        asSent(attr("honorificSuffix", "string", "E.g. `III`.")),
      ],
    },
  ),
  attr(
    "displayName",
    "string",
    "The name shown in the app. When absent, the formatted name, else given and family name, " +
      "else the e-mail address.",
  ),
  attr(
    "emails",
    "complex",
    "E-mail addresses, returned as sent. The primary (else work, else first) value is the " +
      "user's sign-in address: changing it changes the address they sign in with (left out, the " +
      "rest of the change applying, for the owner and Key Users: their address is changed in the " +
      "app). One address belongs to one user of the service; on POST without userName, that " +
      "address is the userName.",
    {
      multiValued: true,
      subAttributes: multiValueSubs("The e-mail address.", ["work"]),
      keptAsSent: true,
    },
  ),
  ...PROFILE_TEXT.map(([name, description]) =>
    asSent(
      name === "profileUrl"
        ? attr(name, "reference", description, { referenceTypes: ["external"] })
        : attr(name, "string", description),
    ),
  ),
  asSent(
    attr("phoneNumbers", "complex", "Telephone numbers.", {
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
  ),
  asSent(
    attr("addresses", "complex", "Physical mailing addresses.", {
      multiValued: true,
      subAttributes: [
        ...ADDRESS_PARTS.map(([name, description]) => attr(name, "string", description)),
        attr("type", "string", "A label for the address's function.", {
          canonicalValues: ["work", "home", "other"],
        }),
        attr("primary", "boolean", "Whether this is the primary address."),
      ],
    }),
  ),
  attr(
    "active",
    "boolean",
    "false: deactivated (sign-in disabled, seat freed, records kept); true: takes a seat.",
  ),
  attr(
    "roles",
    "complex",
    "The primary (else first) value is mapped to an app role by the company's role map; " +
      "unmapped values give `standard`, elevated roles are never granted. Returned as the app " +
      "role.",
    {
      multiValued: true,
      subAttributes: multiValueSubs("The role value.", []),
    },
  ),
  attr(
    "groups",
    "complex",
    "The groups the user is a member of, written through the Group resource (`members`); not " +
      'returned here: `GET /Groups?filter=members[value eq "<id>"]` finds them. Read-only.',
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
    "The name of one of the company's departments, matched case-insensitively after trimming. " +
      "A name no department has is accepted: a new user then has no department (an existing one " +
      "keeps theirs), the name is kept beside them and returned as sent, and they get the " +
      "department once one of that name is created or renamed.",
  ),
  ...ENTERPRISE_TEXT.map(([name, description]) => asSent(attr(name, "string", description))),
  asSent(
    attr("manager", "complex", "The user's manager.", {
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
  ),
];

const find = (defs: AttributeDef[], name: string) =>
  defs.find((d) => d.name.toLowerCase() === name.toLowerCase());
const keptAsSent = (defs: AttributeDef[]) => defs.filter((d) => d.keptAsSent).map((d) => d.name);

/** The attributes kept whole as sent, core and enterprise, in the table's order. */
export const KEPT_AS_SENT = keptAsSent([...USER_ATTRIBUTES, ...ENTERPRISE_ATTRIBUTES]);
/** The parts of `name` kept as sent (the others are the user's own fields). */
export const NAME_PARTS_KEPT_AS_SENT = keptAsSent(
  find(USER_ATTRIBUTES, "name")?.subAttributes ?? [],
);

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
