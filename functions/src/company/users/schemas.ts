import { ApiError, invalidRequest, notFound } from "../../http/errors";
import { z } from "../../http/zod";
import { oneOf } from "../../lib/oneOf";
import { toIso } from "../../repos/storedFields";
import type { RosterUser } from "../../repos/roster";
import type { Department } from "../../repos/rosterLookup";
import { departmentNameOf, UsersError } from "../../services/users";
import { isoTimestamp } from "../../http/zod";

/** The provisioning view of a user (the only place an API returns e-mail addresses). */
export const USER_STATUSES = ["invited", "active", "deactivated"] as const;

export const userSchema = z
  .object({
    id: z.string().openapi({ description: "The user's id (also the Firebase Auth uid)." }),
    email: z.string().nullable(),
    display_name: z.string().nullable(),
    department: z.string().nullable().openapi({ description: "The department's name, or null." }),
    department_id: z.string().nullable(),
    role: z.string().nullable().openapi({ description: "`standard`, `inspector`, `manager` or `owner` (provisioning never grants `owner`)." }),
    status: z.enum(USER_STATUSES).nullable(),
    external_id: z.string().nullable(),
    provisioned_by: z.enum(["api", "scim"]).nullable().openapi({ description: "Null for users created in the app." }),
    created_at: isoTimestamp.nullable(),
    updated_at: isoTimestamp.nullable(),
    deactivated_at: isoTimestamp.nullable(),
  })
  .openapi("User");
export type User = z.infer<typeof userSchema>;

export function toUser(user: RosterUser, departments: readonly Department[]): User {
  return {
    id: user.id,
    email: user.email,
    display_name: user.displayName,
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

export const userIdParams = z.object({ id: z.string().min(1).max(128).openapi({ description: "User id." }) });

/** The service's refusals as envelope errors. */
export function toApiError(err: unknown): unknown {
  if (!(err instanceof UsersError)) return err;
  switch (err.kind) {
    case "conflict":
    case "username":
      return new ApiError("conflict", err.message);
    case "domain":
      return invalidRequest(`Invalid body parameter "email": ${err.message}`);
    case "seats":
      return new ApiError("seat-capacity-exhausted", err.message, {}, { seat_capacity: err.seats?.capacity ?? 0, seats_used: err.seats?.used ?? 0 });
    case "not_found":
      return notFound(err.message);
    case "unknown_department":
      return invalidRequest(`Invalid body parameter "department": ${err.message}`);
    case "protected":
      return new ApiError("forbidden", err.message);
  }
}

/** Runs a service call, answering its refusals as envelope errors. */
export const asHttp = <T>(call: Promise<T>): Promise<T> => call.catch((err: unknown) => Promise.reject(toApiError(err)));
