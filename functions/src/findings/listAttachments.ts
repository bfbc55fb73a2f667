import { storageBuckets } from "../config/params";
import { publicBaseUrl } from "../http/context";
import { notFound } from "../http/errors";
import { limitParam } from "../http/listParams";
import { defineProjectRoute } from "../http/route";
import { z } from "../http/zod";
import { boundedThread, findVisibleFinding, liveFiles } from "../repos/findings";
import { attachmentItems } from "../services/attachments";
import { ATTACHMENT_LIST_EXAMPLE } from "./examples";
import { attachmentSchema, FINDING_NOT_FOUND, findingIdParams } from "./schemas";
import { signRows } from "./signRows";

/**
 * Comments one request reads for comment files. With `limit` (at most 500 rows, so at most
 * 500 signBlob calls) this bounds what one request can cost.
 */
const MAX_THREAD_READS = 1000;

const responseSchema = z
  .object({
    data: z.array(attachmentSchema),
    finding_id: z.string(),
    truncated: z.boolean().openapi({
      description:
        "True when `limit` cut rows off, or the thread had more comments than one " +
        "request reads (1,000).",
    }),
  })
  .openapi("AttachmentList");
export type ListAttachmentsResponse = z.infer<typeof responseSchema>;

export const listAttachments = defineProjectRoute({
  method: "get",
  path: "/v1/findings/{id}/attachments",
  operationId: "listFindingAttachments",
  summary: "A finding's attachments with 15-minute download links",
  description:
    "Not paginated. Rows: the location image first, then the finding's files in the " +
    "order the app and its reports " +
    "show them, then comment files (photos, videos, voice notes, documents) by comment, " +
    "oldest first. `limit` caps the " +
    "total; `truncated` says whether rows were left out (also when the thread has more " +
    "than 1,000 comments: only the first 1,000 " +
    "by comment id are read, a bound on what one request costs, as `limit` bounds the " +
    "links signed). Links are signed only for " +
    "objects in the vessel's own folder of the deployment's buckets (`projects/{project " +
    "id}/…`). A row whose link cannot be created has `download_url: null` " +
    "and a `download_error`; the request still succeeds. Every row's `content_url` " +
    "renews its link without listing again.",
  tags: ["Findings"],
  params: findingIdParams,
  query: z
    .object({
      limit: limitParam.openapi({
        description: "Cap on the total rows across all sources, 1 to 500 (default 100).",
      }),
    })
    .strict(),
  success: {
    description: "The finding's attachments.",
    schema: responseSchema,
    example: ATTACHMENT_LIST_EXAMPLE,
  },
  errors: ["invalid_request", "not_found"],
  handler: async ({ params, query, principal, req }) => {
    const { projectId } = principal;
    const finding = await findVisibleFinding(projectId, params.id);
    if (!finding) throw notFound(FINDING_NOT_FOUND);
    const [files, thread] = await Promise.all([
      liveFiles(projectId, finding.id),
      boundedThread(projectId, finding.id, MAX_THREAD_READS),
    ]);
    const candidates = attachmentItems(
      projectId,
      finding,
      files,
      thread.comments,
      storageBuckets(),
    );
    const kept = candidates.slice(0, query.limit);
    const data = await signRows(
      kept.map((item) => ({ findingId: finding.id, item })),
      publicBaseUrl(req),
    );
    return {
      data,
      finding_id: finding.id,
      truncated: candidates.length > kept.length || !thread.complete,
    } satisfies ListAttachmentsResponse;
  },
});
