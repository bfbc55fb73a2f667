import { defineRoute, Reply } from "../../http/route";
import { asHttp } from "../../http/usersErrors";
import { z } from "../../http/zod";
import { removeUser } from "../../services/users/lifecycle";
import { userIdParams } from "./wire";

export const deleteUser = defineRoute({
  method: "delete",
  path: "/v1/users/{id}",
  operationId: "deleteUser",
  summary: "Remove a user from the roster",
  description:
    "Deactivates the user if needed (sign-in disabled, seat freed), then removes them " +
    "from the roster: they no longer appear in " +
    "`/v1/users` or SCIM and answer 404. Their records (incidents, findings, comments, " +
    "…) are kept. 204, and 204 again when repeated.",
  tags: ["Provisioning"],
  scope: "provisioning",
  // Run again after a stopped first try: it answers as that try would have.
  idempotency: {},
  params: userIdParams,
  query: z.object({}).strict(),
  success: { status: 204, description: "Removed (or already removed).", schema: z.null() },
  errors: ["invalid_request", "not_found"],
  handler: async ({ params, principal, origin }) => {
    await asHttp(removeUser(principal.companyId, params.id, origin));
    return new Reply(null, { status: 204 });
  },
});
