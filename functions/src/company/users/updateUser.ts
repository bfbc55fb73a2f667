import { defineRoute } from "../../http/route";
import { asHttp } from "../../http/usersErrors";
import { z } from "../../http/zod";
import { departmentsOf } from "../../repos/companies";
import { updateUser as update } from "../../services/users/lifecycle";
import { USER_EXAMPLE, USER_UPDATE_EXAMPLE } from "../examples";
import { NAME_INPUT, nameText, toUser, userIdParams, userSchema } from "./wire";

const FIXED = ["email", "role", "status"];
const FIELDS = ["active", "display_name", "given_name", "family_name", "department"];
/** Values are trimmed first: a blank one is refused as empty. */
const NOT_BLANK = "\\S";

const body = z
  .object({
    active: z
      .boolean({ message: "must be true or false" })
      .optional()
      .openapi({
        description:
          "`false` deactivates (sign-in disabled, seat freed, records kept); `true` " +
          "reactivates (takes a seat).",
      }),
    display_name: nameText().optional(),
    given_name: nameText()
      .nullable()
      .optional()
      .openapi({ description: `${NAME_INPUT("given")} null clears it.` }),
    family_name: nameText()
      .nullable()
      .optional()
      .openapi({ description: `${NAME_INPUT("family")} null clears it.` }),
    department: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .openapi({
        pattern: NOT_BLANK,
        description:
          "A department's name (matched after trimming, case-insensitively; unknown: 400); " +
          "null clears it.",
      }),
  })
  .passthrough()
  .superRefine((input, ctx) => {
    // Named apart from other unknown fields: these exist, but provisioning may not set them.
    for (const key of Object.keys(input).filter((k) => !FIELDS.includes(k))) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: FIXED.includes(key)
          ? "cannot be changed through this endpoint"
          : "is not a field of this endpoint",
      });
    }
  })
  // Closed, as the refinement above makes it (passthrough only so that it can name the fixed
  // fields).
  .openapi("UserUpdate", { additionalProperties: false });

export const updateUser = defineRoute({
  method: "patch",
  path: "/v1/users/{id}",
  operationId: "updateUser",
  summary: "Deactivate, reactivate or rename a user, or move them to another department",
  description:
    "`active: false`: status `deactivated`, sign-in disabled and sessions ended, the " +
    "seat freed; every record of the person is kept. " +
    "`active: true` on a deactivated user: back to `invited` (or `active` if they signed " +
    "in before), taking a seat (409 " +
    "`seat-capacity-exhausted` if none). Repeating a state changes nothing. `email`, " +
    "`role` and `status` cannot be changed here.",
  tags: ["Provisioning"],
  scope: "provisioning",
  // Run again after a stopped first try: it answers as that try would have.
  idempotency: {},
  params: userIdParams,
  body,
  bodyExample: USER_UPDATE_EXAMPLE,
  success: {
    description: "The user as it is now.",
    schema: z.object({ data: userSchema }),
    example: {
      data: { ...USER_EXAMPLE, status: "deactivated", deactivated_at: "2026-11-21T08:00:00.000Z" },
    },
  },
  errors: [
    "invalid_request",
    "not_found",
    "seat-capacity-exhausted",
    "payload_too_large",
    "unsupported_media_type",
  ],
  handler: async ({ params, body: input, principal, origin }) => {
    const { companyId } = principal;
    const user = await asHttp(
      update(
        companyId,
        params.id,
        {
          active: input.active,
          displayName: input.display_name,
          department: input.department,
          name: { givenName: input.given_name, familyName: input.family_name },
        },
        origin,
      ),
    );
    return { data: toUser(user, await departmentsOf(companyId)) };
  },
});
