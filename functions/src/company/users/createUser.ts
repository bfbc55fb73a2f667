import type { Request } from "express";
import { publicBaseUrl } from "../../http/context";
import { defineRoute, Reply } from "../../http/route";
import { asHttp } from "../../http/usersErrors";
import { z } from "../../http/zod";
import { departmentsOf } from "../../repos/companies";
import { findUser } from "../../repos/users";
import { inviteUser } from "../../services/users/invite";
import { NEW_USER_EXAMPLE, USER_EXAMPLE } from "../examples";
import { NAME_INPUT, nameText, toUser, userSchema, type User } from "./wire";

const body = z
  .object({
    email: z
      .email({ message: "must be a valid e-mail address" })
      .max(320)
      // zod's own address pattern, stricter than RFC 5321 (no quoted local parts, no `!#$%`): the
      // document states it.
      .openapi({
        pattern: z.regexes.email.source,
        example: "new.hire@example.com",
        description: "Stored and compared lower-cased.",
      }),
    display_name: nameText().openapi({ example: "Nina Holm" }),
    given_name: nameText()
      .optional()
      .openapi({ description: NAME_INPUT("given") }),
    family_name: nameText()
      .optional()
      .openapi({ description: NAME_INPUT("family") }),
    department: z.string().trim().min(1).max(200).optional().openapi({
      pattern: "\\S",
      description: "A department's name, matched case-insensitively after trimming (unknown: 400).",
    }),
  })
  .strict()
  .openapi("NewUser");

export const createUser = defineRoute({
  method: "post",
  path: "/v1/users",
  operationId: "createUser",
  summary: "Invite a user (silent invite, takes a seat)",
  description:
    "Creates the person's sign-in account (no password, no e-mail sent) and the user " +
    "with status `invited`, role `standard`. " +
    "Takes one seat: when none is free, 409 `seat-capacity-exhausted` with " +
    "`seat_capacity` and `seats_used`, and nothing is created. " +
    "An e-mail address already used by any user (of any company) is 409 `conflict`. " +
    "Answers 201 with a `Location` header.",
  tags: ["Provisioning"],
  scope: "provisioning",
  body,
  bodyExample: NEW_USER_EXAMPLE,
  success: {
    status: 201,
    description: "The invited user.",
    schema: z.object({ data: userSchema }),
    example: { data: USER_EXAMPLE },
    headers: { Location: "The new user's address: `…/v1/users/{id}`." },
  },
  errors: [
    "invalid_request",
    "conflict",
    "seat-capacity-exhausted",
    "payload_too_large",
    "unsupported_media_type",
  ],
  // A first try that stopped after its commit: its user, as that try would have answered.
  idempotency: {
    committed: async (id, { companyId }, req) => {
      const user = await findUser(id);
      if (!user || user.companyId !== companyId) throw new Error(`users/${id} is not the change`);
      return invited(toUser(user, await departmentsOf(companyId)), req);
    },
  },
  handler: async ({ body: input, principal, req, origin }) => {
    const { companyId } = principal;
    const user = await asHttp(
      inviteUser(
        companyId,
        {
          email: input.email,
          displayName: input.display_name,
          department: input.department,
          ...(input.given_name !== undefined || input.family_name !== undefined
            ? {
                name: {
                  givenName: input.given_name ?? null,
                  familyName: input.family_name ?? null,
                  formattedName: null,
                },
              }
            : {}),
          provisionedBy: "api",
        },
        origin,
      ),
    );
    return invited(toUser(user, await departmentsOf(companyId)), req);
  },
});

function invited(data: User, req: Request): Reply {
  return new Reply(
    { data },
    {
      status: 201,
      headers: { Location: `${publicBaseUrl(req)}/v1/users/${encodeURIComponent(data.id)}` },
    },
  );
}
