import { toIso } from "../lib/dates";
import type { AttachmentSource } from "../services/attachments";
import type { Attachment } from "./schemas";

/** An attachment row of the wire format, before its link is signed. */
export type UnsignedRow = Omit<
  Attachment,
  "download_url" | "download_url_expires_at" | "download_error" | "content_url"
>;

const empty = {
  id: null,
  comment_id: null,
  title: null,
  description_short: null,
  description_long: null,
  custom_index: null,
  folder_path: null,
  excluded_from_reports: false,
  uploaded_by: null,
  uploaded_by_name: null,
  uploaded_by_company_name: null,
};

export function attachmentRow(source: AttachmentSource): UnsignedRow {
  switch (source.kind) {
    case "location_details_image": {
      const { image } = source;
      return {
        ...empty,
        source: "location_details_image",
        file_name: image.fileName,
        content_kind: "image",
        blur_hash: image.blurHash,
        captured_at: toIso(image.capturedAt),
        uploaded_at: toIso(image.uploadedAt),
        uploaded_by: image.uploadedBy,
        uploaded_by_name: image.uploadedByName,
        uploaded_by_company_name: image.uploadedByCompanyName,
      };
    }
    case "findings_file": {
      const { file } = source;
      return {
        id: file.id,
        source: "findings_file",
        comment_id: null,
        title: file.title,
        description_short: file.descriptionShort,
        description_long: file.descriptionLong,
        file_name: file.fileName,
        content_kind: file.contentKind,
        custom_index: file.customIndex,
        folder_path: file.folderPath,
        blur_hash: file.blurHash,
        excluded_from_reports: file.excludedFromReports,
        captured_at: toIso(file.capturedAt),
        uploaded_at: toIso(file.uploadedAt),
        uploaded_by: file.uploadedBy,
        uploaded_by_name: file.uploadedByName,
        uploaded_by_company_name: file.uploadedByCompanyName,
      };
    }
    case "comment": {
      const { comment, media } = source;
      return {
        ...empty,
        source: "comment",
        comment_id: comment.id,
        file_name: media.fileName,
        content_kind: media.kind,
        blur_hash: media.blurHash,
        captured_at: toIso(media.capturedAt),
        uploaded_at: toIso(media.uploadedAt),
        uploaded_by: comment.authorId,
        uploaded_by_name: comment.authorName,
      };
    }
  }
}
