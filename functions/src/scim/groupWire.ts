import { z } from "../http/zod";
import { toIso } from "../lib/dates";
import type { Member, StoredGroup } from "../services/groups";
import { MAX_OPERATIONS } from "./patchOp";
import { attr, documented, groupPath, URN, userPath, type AttributeDef } from "./routeKit";

/**
 * The SCIM Group resource: its wire shapes (zod, for the OpenAPI document) and a stored group as
 * one.
 */
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

export const MAX_MEMBERS_PER_REQUEST = 1_000;
/**
 * The most members one answer lists (over it: 400 `tooMany`, or a write's answer without them):
 * within the read budget of a request (docs/api-behaviour.md, "Read budget").
 */
export const MEMBERS_PER_ANSWER = 2_000;
/** The most members a write's answer lists (its change read up to 2,000 users already). */
export const MEMBERS_PER_WRITE_ANSWER = 400;

const memberSchema = z.object({
  value: z.string(),
  display: z.string().optional(),
  $ref: z.string().optional(),
  type: z.literal("User").optional(),
});

export const scimGroupSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    displayName: z.string().optional(),
    members: z.array(memberSchema).optional().openapi({
      description: "Left out when `excludedAttributes=members` (or `attributes` without it) asks.",
    }),
    meta: z
      .object({
        resourceType: z.literal("Group"),
        created: z.string().optional(),
        lastModified: z.string().optional(),
        location: z.string().openapi({ format: "uri" }),
      })
      .optional(),
  })
  .openapi("ScimGroup");

export const scimGroupInput = z
  .looseObject({
    schemas: documented("array", `\`["${URN.group}"]\`.`),
    displayName: z.string().min(1).max(256).openapi({
      description:
        "Required; 1–256 characters after trimming; unique within the company, case-insensitively.",
    }),
    externalId: documented(
      "string",
      "The identity provider's id of the group; at most 256 characters; null clears it.",
      { maxLength: 256 },
      true,
    ),
    members: documented(
      "array",
      `\`[{ "value": "<user id>" }]\`: users of the company; at most ` +
        `${MAX_MEMBERS_PER_REQUEST} a request. Left out of a PUT, the members are kept; null: ` +
        "none.",
      { maxItems: MAX_MEMBERS_PER_REQUEST },
      true,
    ),
  })
  .openapi("ScimGroupInput", {
    description: "A SCIM Group (RFC 7643 §4.2). Attribute names are case-insensitive.",
  });

export const groupPatchInput = z
  .looseObject({
    schemas: documented("array", `\`["${URN.patchOp}"]\`.`),
    Operations: documented(
      "array",
      `1 to ${MAX_OPERATIONS} operations on \`displayName\`, \`externalId\`, \`members\` and ` +
        `\`members[value eq "<id>"]\` (add, replace, remove), with or without \`path\`.`,
      { minItems: 1, maxItems: MAX_OPERATIONS },
    ),
  })
  .openapi("ScimGroupPatchOp", { description: "RFC 7644 §3.5.2 PatchOp on a Group: all or none." });

export const SCIM_GROUP_INPUT_EXAMPLE = {
  schemas: [URN.group],
  displayName: "Deck crew",
  externalId: "00g1deckcrew",
  members: [{ value: "Xb3kP2mQ9zL1", display: "Ingrid Nilsen" }],
};
export const SCIM_GROUP_PATCH_EXAMPLE = {
  schemas: [URN.patchOp],
  Operations: [
    { op: "add", path: "members", value: [{ value: "Xb3kP2mQ9zL1" }] },
    { op: "remove", path: 'members[value eq "Yc4lQ3nR0aM2"]' },
  ],
};

/** A stored group as a SCIM resource; `members` null: not asked for (not read). */
export function toScimGroup(
  group: StoredGroup,
  members: Member[] | null,
  url: (path: string) => string,
) {
  return {
    schemas: [URN.group],
    id: group.id,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    // No members is left out, as every attribute without a value (RFC 7643 §2.5).
    ...(members?.length
      ? {
          members: members.map((m) => ({
            value: m.id,
            ...(m.displayName ? { display: m.displayName } : {}),
            $ref: url(userPath(m.id)),
            type: "User" as const,
          })),
        }
      : {}),
    meta: {
      resourceType: "Group" as const,
      ...(group.createdAt ? { created: toIso(group.createdAt) } : {}),
      ...(group.updatedAt ? { lastModified: toIso(group.updatedAt) } : {}),
      location: url(groupPath(group.id)),
    },
  };
}
