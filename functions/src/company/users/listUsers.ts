import { limitParam, pageTokenParam } from "../../http/listParams";
import { paged, pageOf } from "../../http/paging";
import { defineRoute } from "../../http/route";
import { z } from "../../http/zod";
import { departmentsOf } from "../../repos/companies";
import { queryRoster } from "../../repos/users";
import { USER_EXAMPLE } from "../examples";
import { toUser, USER_STATUSES, userSchema } from "./wire";

const query = z
  .object({
    limit: limitParam,
    page_token: pageTokenParam,
    email: z
      .string()
      .min(1)
      .max(320)
      .optional()
      .openapi({ description: "Exact match, case-insensitive." }),
    status: z.enum(USER_STATUSES, { message: "must be invited, active or deactivated" }).optional(),
  })
  .strict();

const responseSchema = pageOf(userSchema, "UserPage");

export const listUsers = defineRoute({
  method: "get",
  path: "/v1/users",
  operationId: "listUsers",
  summary: "The company's users",
  description:
    "Ordered by `created_at`, then id; removed users never appear. Filters: `email` " +
    "(exact, case-insensitive) or `status`.",
  tags: ["Provisioning"],
  scope: "provisioning",
  query,
  success: {
    description: "One page of users.",
    schema: responseSchema,
    example: { data: [USER_EXAMPLE], next_page_token: null },
  },
  errors: ["invalid_request"],
  handler: async ({ query: q, principal, tokenScope }) => {
    const { companyId } = principal;
    const email = q.email?.trim().toLowerCase();
    // One exact filter in the query; with both, the (at most one) user of the address is checked
    // for the status.
    const equality = email
      ? { field: "email" as const, value: email }
      : q.status
        ? { field: "status" as const, value: q.status }
        : undefined;
    const fetch = async (after: Parameters<Parameters<typeof paged>[2]>[0], limit: number) =>
      (await queryRoster(companyId, { equality, after, limit })).map((r) =>
        email && q.status && r.row?.status !== q.status ? { ...r, row: null } : r,
      );
    const [page, departments] = await Promise.all([
      paged(q, tokenScope, fetch),
      departmentsOf(companyId),
    ]);
    return {
      data: page.data.map((u) => toUser(u, departments)),
      next_page_token: page.next_page_token,
    };
  },
});
