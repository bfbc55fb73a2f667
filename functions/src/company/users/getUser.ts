import { notFound } from "../../http/errors";
import { defineRoute } from "../../http/route";
import { z } from "../../http/zod";
import { departmentsOf } from "../../repos/companies";
import { findOnRoster } from "../../repos/users";
import { USER_EXAMPLE } from "../examples";
import { toUser, userIdParams, userSchema } from "./wire";

export const getUser = defineRoute({
  method: "get",
  path: "/v1/users/{id}",
  operationId: "getUser",
  summary: "One user",
  description:
    "A user of the key's company; another company's user, an unknown or a removed one is 404.",
  tags: ["Provisioning"],
  scope: "provisioning",
  params: userIdParams,
  query: z.object({}).strict(),
  success: {
    description: "The user.",
    schema: z.object({ data: userSchema }),
    example: { data: { ...USER_EXAMPLE, status: "active" } },
  },
  errors: ["invalid_request", "not_found"],
  handler: async ({ params, principal }) => {
    const { companyId } = principal;
    const [user, departments] = await Promise.all([
      findOnRoster(companyId, params.id),
      departmentsOf(companyId),
    ]);
    if (!user) throw notFound("No such user in this company.");
    return { data: toUser(user, departments) };
  },
});
