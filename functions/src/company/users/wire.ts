import { isoTimestamp, z } from "../../http/zod";
import { oneOf } from "../../lib/oneOf";
import { servedName } from "../../lib/personName";
import type { Department } from "../../repos/companies";
import { toIso } from "../../repos/stored";
import type { StoredUser } from "../../repos/users";
import { departmentNameOf } from "../../services/users/rules";

/**
 * The wire shapes of /v1/users: the provisioning view of a user (the only place an API returns
 * e-mail addresses).
 */
const NAME_PART =
  "As the identity provider sent it (SCIM `name`); for a user without name parts (created in " +
  "the app or here, which keep only a display name), from a display name of exactly two words " +
  "(`Kari Nordmann`), else null: the parts of a longer name are not guessed.";

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
