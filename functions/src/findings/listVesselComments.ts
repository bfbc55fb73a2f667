import { limitParam, pageTokenParam } from "../http/listParams";
import { pageOf } from "../http/paging";
import { defineProjectRoute } from "../http/route";
import { pagedScan } from "../http/scanPaging";
import { z } from "../http/zod";
import { vesselCommentPage } from "../services/vesselComments";
import { COMMENT_PAGE_EXAMPLE } from "./examples";
import { toComment } from "./map";
import { commentSchema } from "./schemas";

const responseSchema = pageOf(commentSchema, "VesselCommentPage");
export type ListVesselCommentsResponse = z.infer<typeof responseSchema>;

export const listVesselComments = defineProjectRoute({
  method: "get",
  path: "/v1/comments",
  operationId: "listVesselComments",
  summary: "Every comment of the vessel's findings, for a first copy",
  description:
    "The comments of all visible findings (those of hidden findings never appear), each " +
    "exactly as " +
    "`GET /v1/findings/{id}/comments` returns it, with its `finding_id`. Ordered by " +
    "finding id, then by comment id " +
    "(not by `created_at`: the order of stored documents, stable while you page). A page " +
    "reads at most `limit` + 1 " +
    "comments and one finding per distinct finding among them; a page may be short, even " +
    "empty, and still have a next page.",
  tags: ["Findings"],
  query: z.object({ limit: limitParam, page_token: pageTokenParam }).strict(),
  success: {
    description: "One page of comments.",
    schema: responseSchema,
    example: COMMENT_PAGE_EXAMPLE,
  },
  errors: ["invalid_request"],
  handler: async ({ query, principal, tokenScope }) =>
    (await pagedScan(query, tokenScope, async (after, limit) => {
      const page = await vesselCommentPage(principal.projectId, after, limit);
      return {
        rows: page.rows.map((r) => r && toComment(r.comment, r.findingId)),
        resume: page.resume,
      };
    })) satisfies ListVesselCommentsResponse,
});
