import { storageBuckets } from "../config/params";
import { publicBaseUrl } from "../http/context";
import { limitParam, pageTokenParam } from "../http/listParams";
import { pageOf } from "../http/paging";
import { defineProjectRoute } from "../http/route";
import { pagedScan } from "../http/scanPaging";
import { z } from "../http/zod";
import { vesselAttachmentPage } from "../services/vesselAttachments";
import { ATTACHMENT_LIST_EXAMPLE } from "./examples";
import { attachmentSchema } from "./schemas";
import { signRows } from "./signRows";

const vesselAttachmentSchema = attachmentSchema
  .extend({
    finding_id: z.string().openapi({ description: "The finding the attachment belongs to." }),
  })
  .openapi("VesselAttachment");

const responseSchema = pageOf(vesselAttachmentSchema, "VesselAttachmentPage");
export type ListVesselAttachmentsResponse = z.infer<typeof responseSchema>;

export const listVesselAttachments = defineProjectRoute({
  method: "get",
  path: "/v1/attachments",
  operationId: "listVesselAttachments",
  summary: "Every attachment of the vessel's findings, with 15-minute links, for a first copy",
  description:
    "The attachment rows of all visible findings (those of hidden findings never appear; " +
    "a deleted file is not an " +
    "attachment), each exactly as `GET /v1/findings/{id}/attachments` returns it, with " +
    "its `finding_id`. Ordered by " +
    "finding id, then within a finding: the location image, the comments' files (by " +
    "comment id, each comment's files in " +
    "their order), then the finding's files (by file id) — the order of stored " +
    "documents, stable while you page, not " +
    "the app's order of the per-finding listing. A page reads at most 9 × (`limit` + 1) " +
    "documents (files, comments " +
    "and findings, most of which carry no attachment) and signs at most `limit` links; a " +
    "page may be short, even empty, " +
    "and still have a next page. Every row's `content_url` renews its link later.",
  tags: ["Findings"],
  query: z.object({ limit: limitParam, page_token: pageTokenParam }).strict(),
  success: {
    description: "One page of attachments.",
    schema: responseSchema,
    example: {
      data: ATTACHMENT_LIST_EXAMPLE.data.map((row) => ({
        ...row,
        finding_id: ATTACHMENT_LIST_EXAMPLE.finding_id,
      })),
      next_page_token: null,
    },
  },
  errors: ["invalid_request"],
  handler: async ({ query, principal, tokenScope, req }) =>
    (await pagedScan(query, tokenScope, async (after, limit) => {
      const { projectId } = principal;
      const page = await vesselAttachmentPage(projectId, after, limit, storageBuckets());
      const signed = await signRows(page.rows, publicBaseUrl(req));
      return {
        rows: signed.map((row, i) => ({ ...row, finding_id: page.rows[i].findingId })),
        resume: page.resume,
      };
    })) satisfies ListVesselAttachmentsResponse,
});
