import { notFound } from "../http/errors";
import { WINDOW_RULE, windowedListQuery } from "../http/listParams";
import { paged, pageOf } from "../http/paging";
import { defineProjectRoute } from "../http/route";
import { z } from "../http/zod";
import { findVisibleFinding, queryComments } from "../repos/findings";
import { COMMENT_PAGE_EXAMPLE } from "./examples";
import { toComment } from "./map";
import { commentSchema, FINDING_NOT_FOUND, findingIdParams } from "./schemas";

const query = windowedListQuery(
  {
    from:
      "Inclusive lower bound on the comment's `created_at`. Comments without a " +
      "`created_at` are excluded when it is given.",
    to:
      "Exclusive upper bound on the comment's `created_at`. Comments without a " +
      "`created_at` sort first and are included.",
  },
  {},
);

const responseSchema = pageOf(commentSchema, "CommentPage");
export type ListCommentsResponse = z.infer<typeof responseSchema>;

export const listComments = defineProjectRoute({
  method: "get",
  path: "/v1/findings/{id}/comments",
  operationId: "listFindingComments",
  summary: "A finding's comment thread, oldest first",
  description:
    "Ordered by `created_at` ascending, then by id; includes the entries the app writes itself " +
    "(`system_triggered: true`, e.g. status changes). `from` is inclusive and `to` " +
    "exclusive, both on `created_at`.",
  tags: ["Findings"],
  params: findingIdParams,
  query,
  rules: [WINDOW_RULE],
  success: {
    description: "One page of comments.",
    schema: responseSchema,
    example: COMMENT_PAGE_EXAMPLE,
  },
  errors: ["invalid_request", "not_found"],
  handler: async ({ params, query: q, principal, tokenScope }) => {
    const { projectId } = principal;
    const finding = await findVisibleFinding(projectId, params.id);
    if (!finding) throw notFound(FINDING_NOT_FOUND);
    return (await paged(q, tokenScope, async (after, limit) =>
      (await queryComments(projectId, finding.id, { from: q.from, to: q.to, after, limit })).map(
        ({ comment, cursor }) => ({ row: toComment(comment, finding.id), cursor }),
      ),
    )) satisfies ListCommentsResponse;
  },
});
