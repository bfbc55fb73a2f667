import { z } from "../http/zod";
import { MAX_OPERATIONS } from "./patchOp";
import { type AttributeDef, documented, URN } from "./routeKit";
import {
  AS_SENT,
  ENTERPRISE_ATTRIBUTES,
  KEPT_AS_SENT,
  NAME_PARTS_KEPT_AS_SENT,
  USER_ATTRIBUTES,
} from "./userSchema";

/**
 * The wire shapes (zod) of the SCIM Users endpoints, for the OpenAPI document and the tests:
 * the attributes of userSchema.ts's table (test/unit/scimUserTable.test.ts checks that they
 * are the same), its text for those kept as sent.
 */
const multiValue = z.object({
  value: z.string().optional(),
  display: z.string().optional(),
  type: z.string().optional(),
  primary: z.boolean().optional(),
});

/** The single-valued text attributes kept as sent, from the table. */
const asSent = (defs: AttributeDef[]) =>
  Object.fromEntries(
    defs
      .filter((d) => d.keptAsSent && d.type !== "complex")
      .map((d) => [d.name, z.string().optional().openapi({ description: AS_SENT })]),
  );
const address = z.object({
  formatted: z.string().optional(),
  streetAddress: z.string().optional(),
  locality: z.string().optional(),
  region: z.string().optional(),
  postalCode: z.string().optional(),
  country: z.string().optional(),
  type: z.string().optional(),
  primary: z.boolean().optional(),
});

export const scimUserSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    userName: z.string().optional().openapi({
      description:
        "As written by the identity provider (the e-mail address for users created otherwise).",
    }),
    displayName: z.string().optional(),
    name: z
      .object({
        givenName: z.string().optional(),
        familyName: z.string().optional(),
        formatted: z.string().optional(),
        middleName: z.string().optional(),
        honorificPrefix: z.string().optional(),
        honorificSuffix: z.string().optional(),
      })
      .optional(),
    ...asSent(USER_ATTRIBUTES),
    emails: z
      .array(multiValue)
      .optional()
      .openapi({
        description:
          "As sent (case included) while their primary (else work, else first) value is the " +
          "sign-in address; else that address alone (`type: work`).",
      }),
    phoneNumbers: z.array(multiValue).optional().openapi({ description: AS_SENT }),
    addresses: z.array(address).optional().openapi({ description: AS_SENT }),
    active: z.boolean().optional().openapi({ description: "false when deactivated." }),
    roles: z
      .array(multiValue)
      .optional()
      .openapi({ description: "The app role (`standard`, `inspector`, `manager` or `owner`)." }),
    [URN.enterprise]: z
      .object({
        department: z.string().optional(),
        ...asSent(ENTERPRISE_ATTRIBUTES),
        manager: z
          .object({
            value: z.string().optional(),
            $ref: z.string().optional(),
            displayName: z.string().optional(),
          })
          .optional()
          .openapi({ description: AS_SENT }),
      })
      .optional(),
    meta: z
      .object({
        resourceType: z.literal("User"),
        created: z.string().optional(),
        lastModified: z.string().optional(),
        location: z.string().openapi({ format: "uri" }),
      })
      .optional(),
  })
  .openapi("ScimUser", {
    description:
      "Every attribute but `id` and `schemas` is left out when `attributes` or " +
      "`excludedAttributes` asks so.",
  });
export type ScimUser = z.infer<typeof scimUserSchema>;

/** The attributes the app has no field for, named once in the input's description. */
const KEPT = [...KEPT_AS_SENT, ...NAME_PARTS_KEPT_AS_SENT.map((n) => `name.${n}`)]
  .filter((n) => n !== "emails")
  .map((n) => `\`${n}\``)
  .join(", ");

export const scimUserInput = z
  .looseObject({
    schemas: documented("array", `\`["${URN.user}", "${URN.enterprise}"]\`.`),
    userName: documented(
      "string",
      "Unique within the company, case-insensitively; need not be an e-mail address (e.g. " +
        "`jdoe`). At most 320 characters (after trimming).",
      { maxLength: 320 },
    ),
    externalId: documented(
      "string",
      "The identity provider's id of the user; at most 256 characters (after trimming); null " +
        "clears it.",
      { maxLength: 256 },
      true,
    ),
    name: documented(
      "object",
      "`givenName`, `familyName`, `formatted`: at most 200 characters each (after trimming).",
      {
        properties: {
          givenName: { type: "string", maxLength: 200 },
          familyName: { type: "string", maxLength: 200 },
          formatted: { type: "string", maxLength: 200 },
        },
      },
      true,
    ),
    displayName: documented(
      "string",
      "1–200 characters (after trimming); derived from the name or e-mail address when absent.",
      { maxLength: 200 },
    ),
    emails: documented(
      "array",
      "The primary (else work, else first) value is the sign-in address; without emails, " +
        "userName when it is an address. Without either the user has no sign-in account until a " +
        "later request sends one. Returned as sent.",
    ),
    phoneNumbers: documented("array", `\`[{ value, type, primary }]\`. ${AS_SENT}`),
    addresses: documented(
      "array",
      `\`[{ formatted, streetAddress, locality, region, postalCode, country, type, primary ` +
        `}]\`. ${AS_SENT}`,
    ),
    title: documented("string", AS_SENT),
    active: documented(
      "boolean",
      'true (default) or false; the strings "True"/"False" are accepted; null (unassigned) ' +
        "keeps the user's state.",
      {},
      true,
    ),
    roles: documented(
      "array",
      "The primary (else first) value is mapped through the company's role map.",
    ),
    [URN.enterprise]: documented(
      "object",
      `\`department\`: the name of one of the company's departments (at most 200 characters). ` +
        `\`employeeNumber\`, \`costCenter\`, \`organization\`, \`division\`, \`manager\` (\`{ ` +
        `value }\`, or the id alone): ${AS_SENT}`,
      {
        properties: { department: { type: "string", maxLength: 200 } },
      },
    ),
  })
  .openapi("ScimUserInput", {
    description:
      "A SCIM User. Attribute names are case-insensitive; attributes this service does not " +
      `define are ignored. Kept as sent: ${KEPT}. ${AS_SENT}`,
  });

export const patchOpInput = z
  .looseObject({
    schemas: documented("array", `\`["${URN.patchOp}"]\`.`),
    Operations: documented(
      "array",
      `\`[{ "op": "add" | "replace" | "remove", "path"?: …, "value"?: … }]\`; \`op\` is ` +
        `case-insensitive. 1 to ${MAX_OPERATIONS} operations.`,
      {
        minItems: 1,
        maxItems: MAX_OPERATIONS,
      },
    ),
  })
  .openapi("ScimPatchOp", {
    description: "RFC 7644 §3.5.2 PatchOp. Operations apply in order, all or none.",
  });
