import { storageBuckets } from "../config/params";
import { ApiError, notFound } from "../http/errors";
import { defineProjectRoute, Reply } from "../http/route";
import { z } from "../http/zod";
import { findVisibleFinding } from "../repos/findings";
import { attachmentOf } from "../services/attachmentContent";
import { parseAttachmentId } from "../services/attachments";
import { noteSigningFailure, signReadUrl } from "../services/signing";
import { FINDING_NOT_FOUND } from "./schemas";

const linkSchema = z
  .object({
    download_url: z.string().openapi({ description: "The signed link, also in `Location`." }),
    download_url_expires_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("AttachmentLink");

const NO_ATTACHMENT = "No such attachment on this finding.";
const NO_OBJECT =
  "This attachment has no object this API can link to (see the row's download_error).";

export const getAttachmentContent = defineProjectRoute({
  method: "get",
  path: "/v1/findings/{id}/attachments/{attachment_id}/content",
  operationId: "getAttachmentContent",
  summary: "Redirect to a freshly signed 15-minute link for one attachment",
  description:
    "The address in every attachment row's `content_url`. Answers `302` with `Location` " +
    "set to a V4 signed link, " +
    "valid 15 minutes, for that one object; most HTTP clients follow it (and drop the " +
    "`Authorization` header on the " +
    "way, as the link needs none). Counted and audited like any request. `404` when the " +
    "finding is unknown or hidden, " +
    "the attachment is unknown or its file deleted, or its object lies outside the " +
    "vessel's folder.",
  tags: ["Findings"],
  params: z.object({
    id: z.string().openapi({ description: "Finding id." }),
    attachment_id: z.string().openapi({
      description:
        "As in `content_url`: `location_details_image`, `file.{file id}` or " +
        "`comment.{comment id}.{n}`.",
    }),
  }),
  query: z.object({}).strict(),
  success: {
    status: 302,
    description: "A fresh link, in `Location` and in the body.",
    schema: linkSchema,
    example: {
      download_url:
        "https://storage.googleapis.com/demo-bucket/projects/demo-vessel-a/railing.jpg" +
        "?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=900&X-Goog-Signature=…",
      download_url_expires_at: "2026-08-04T11:17:10.000Z",
    },
    headers: { Location: "The signed link (valid 15 minutes)." },
  },
  errors: ["invalid_request", "not_found"],
  handler: async ({ params, principal }) => {
    const { projectId } = principal;
    const finding = await findVisibleFinding(projectId, params.id);
    if (!finding) throw notFound(FINDING_NOT_FOUND);
    const ref = parseAttachmentId(params.attachment_id);
    const item = ref && (await attachmentOf(projectId, finding, ref, storageBuckets()));
    if (!item) throw notFound(NO_ATTACHMENT);
    const { target } = item;
    if ("error" in target) throw notFound(NO_OBJECT);
    try {
      const { url, expiresAt } = await signReadUrl(target.bucket, target.path);
      return new Reply(
        { download_url: url, download_url_expires_at: expiresAt.toISOString() },
        { headers: { Location: url } },
      );
    } catch (err) {
      noteSigningFailure(target.bucket, err);
      throw new ApiError("internal", "The link could not be signed; try again later.");
    }
  },
});
