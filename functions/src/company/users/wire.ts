import { isoTimestamp, z } from "../../http/zod";
import { toIso } from "../../lib/dates";
import { oneOf } from "../../lib/oneOf";
import { servedName } from "../../lib/personName";
import { CONTROL_REFUSED, hasControlOrFormat } from "../../lib/visibleText";
import type { Department } from "../../repos/companies";
import type { StoredUser } from "../../repos/users";
import { departmentNameOf } from "../../services/users/rules";

/**
 * The wire shapes of /v1/users: the provisioning view of a user (the only place an API returns
 * e-mail addresses).
 */
const NAME_PART =
  "As set by `POST`/`PATCH /v1/users` or as the identity provider sent it (SCIM `name`); null " +
  "when neither set it: the parts are never guessed from the display name.";

/**
 * A person's name or part of one: 1 to 200 characters after trimming, without control or format
 * characters (NUL, bidi overrides, zero-width spaces), which would show a name other than the one
 * stored.
 */
/** The description of an input name part. */
export const NAME_INPUT = (part: "given" | "family") =>
  `The ${part} name (SCIM \`name.${part}Name\`, which an identity provider such as Okta needs ` +
  "to import the user); 1 to 200 characters after trimming, no control or format characters.";

export const nameText = () =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? "is required" : "must be a string"),
    })
    .trim()
    .min(1, "must be 1 to 200 characters")
    .max(200, "must be 1 to 200 characters")
    .refine((s) => !hasControlOrFormat(s), { message: CONTROL_REFUSED })
    .openapi({
      pattern: "\\S",
      description:
        "1 to 200 characters after trimming; no control or format characters (allowed: the " +
        "joiners U+200C and U+200D, the marks U+200E, U+200F and U+061C, the soft hyphen " +
        "U+00AD and an emoji's tag sequence).",
    });

export const USER_STATUSES = ["invited", "active", "deactivated"] as const;

export const userSchema = z
  .object({
    id: z.string().openapi({ description: "The user's id (also the Firebase Auth uid)." }),
    email: z.string().nullable(),
    display_name: z.string().nullable(),
    given_name: z.string().nullable().openapi({ description: NAME_PART }),
    family_name: z.string().nullable().openapi({ description: NAME_PART }),
    department: z.string().nullable().openapi({ description: "The department's name, or null." }),
    department_id: z.string().nullable(),
    role: z.string().nullable().openapi({
      description:
        "`standard`, `inspector`, `manager` or `owner` (provisioning never grants `owner`).",
    }),
    status: z.enum(USER_STATUSES).nullable(),
    external_id: z.string().nullable(),
    provisioned_by: z
      .enum(["api", "scim"])
      .nullable()
      .openapi({ description: "Null for users created in the app." }),
    created_at: isoTimestamp.nullable(),
    updated_at: isoTimestamp.nullable(),
    deactivated_at: isoTimestamp.nullable(),
  })
  .openapi("User");
export type User = z.infer<typeof userSchema>;

export function toUser(user: StoredUser, departments: readonly Department[]): User {
  const name = servedName(user);
  return {
    id: user.id,
    email: user.email,
    display_name: user.displayName,
    given_name: name.givenName,
    family_name: name.familyName,
    department: departmentNameOf(user, departments),
    department_id: user.departmentId,
    role: user.role,
    status: oneOf(USER_STATUSES, user.status),
    external_id: user.externalId,
    provisioned_by: oneOf(["api", "scim"] as const, user.provisionedBy),
    created_at: toIso(user.createdAt),
    updated_at: toIso(user.updatedAt),
    deactivated_at: toIso(user.deactivatedAt),
  };
}

export const userIdParams = z.object({
  id: z.string().min(1).max(128).openapi({ description: "User id." }),
});
