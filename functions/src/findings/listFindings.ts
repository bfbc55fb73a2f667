import { instantParam, WINDOW_RULE, windowedListQuery } from "../http/listParams";
import { paged, pageOf, pageRow, type PageBody } from "../http/paging";
import { defineProjectRoute } from "../http/route";
import { z } from "../http/zod";
import { queryFindings, type EqualityField } from "../repos/findings";
import { FINDING_PAGE_EXAMPLE } from "./examples";
import { toFinding } from "./map";
import { findingSchema, STATUS_VALUES } from "./schemas";

const FILTERS: EqualityField[] = ["status", "system", "priority"];

const listFindingsQuery = windowedListQuery(
  {
    from:
      "Default mode: inclusive lower bound on `date_created`. Findings without a " +
      "`date_created` are excluded when it is given.",
    to:
      "Default mode: exclusive upper bound on `date_created`. Findings without a " +
      "`date_created` sort first and are included.",
  },
  {
    updated_since: instantParam(
      "Incremental sync: findings whose `last_edited_date` is at or after this instant, " +
        "ordered by `last_edited_date`. Cannot be combined with `from` or `to` (400).",
    ),
    status: z.enum(STATUS_VALUES).optional().openapi({
      description: "Exactly one of the six status values. At most one of status, system, priority.",
    }),
    system: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({
        description:
          "Exact match on the finding's system (at most 200 characters). At most one of " +
          "status, system, priority.",
      }),
    priority: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({
        description:
          "Exact match on the finding's priority (at most 200 characters). At most one of " +
          "status, system, priority.",
      }),
  },
).superRefine((q, ctx) => {
  if (q.updated_since && (q.from || q.to)) {
    ctx.addIssue({
      code: "custom",
      path: ["updated_since"],
      message: "cannot be combined with from or to",
    });
  }
  const given = FILTERS.filter((f) => q[f] !== undefined);
  if (given.length > 1) {
    ctx.addIssue({
      code: "custom",
      path: [given[1]],
      message: `only one of status, system, priority may be given (got ${given.join(", ")})`,
    });
  }
});

const responseSchema = pageOf(findingSchema, "FindingPage");
export type ListFindingsResponse = z.infer<typeof responseSchema>;

export const listFindings = defineProjectRoute({
  method: "get",
  path: "/v1/findings",
  operationId: "listFindings",
  summary: "The project's findings, with checklists",
  description:
    "Default mode: ordered by `date_created` ascending (findings without one first), then by id. " +
    "Incremental sync (`updated_since`): ordered by `last_edited_date` ascending, then by id. " +
    "Hidden findings are removed after each page is read, so a page may be short or even " +
    "empty and still have a " +
    "`next_page_token`; page until it is null. A `page_token` is bound to the key's " +
    "project, the mode and every filter.",
  tags: ["Findings"],
  query: listFindingsQuery,
  rules: [
    WINDOW_RULE,
    "`updated_since` cannot be combined with `from` or `to`.",
    "At most one of `status`, `system` and `priority`.",
  ],
  success: {
    description: "One page of findings.",
    schema: responseSchema,
    example: FINDING_PAGE_EXAMPLE,
  },
  errors: ["invalid_request"],
  handler: async ({ query: q, principal, tokenScope }) => {
    const { projectId } = principal;
    const incremental = q.updated_since !== undefined;
    const filter = FILTERS.find((f) => q[f] !== undefined);
    const equality = filter ? { field: filter, value: q[filter]! } : undefined;
    return (await paged(q, tokenScope, (after, limit) =>
      queryFindings(
        projectId,
        incremental ? "lastEditedDate" : "dateCreated",
        { from: incremental ? q.updated_since : q.from, to: q.to, equality, after, limit },
        pageRow(toFinding),
      ),
    )) satisfies PageBody<ListFindingsResponse>;
  },
});
