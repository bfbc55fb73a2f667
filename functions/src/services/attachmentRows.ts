import type { Timestamp } from "firebase-admin/firestore";
import type { Attachment } from "../findings/schemas";
import { parseStorageRef } from "../lib/storageRef";
import type { CommentDoc, FileDoc, FindingDoc } from "../repos/findingDocs";
import { toIso } from "../repos/stored";

/**
 * A finding's attachments in the spec's order: the location image, then the finding's files
 * in the app's order (customIndex ascending, files without one last, then uploadedAt, then
 * id), then comment files by comment, oldest first. Deleted files are not attachments.
 */
export type Signable = { bucket: string; path: string } | { error: "unrecognized_storage_reference" | "foreign_bucket" };
export type UnsignedRow = Omit<Attachment, "download_url" | "download_url_expires_at" | "download_error">;
export interface Candidate {
  row: UnsignedRow;
  target: Signable;
}

const millis = (t: Timestamp | null) => (t ? t.toMillis() : Number.POSITIVE_INFINITY);

export function appOrder(a: FileDoc, b: FileDoc): number {
  const ai = a.customIndex ?? Number.POSITIVE_INFINITY;
  const bi = b.customIndex ?? Number.POSITIVE_INFINITY;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const au = millis(a.uploadedAt);
  const bu = millis(b.uploadedAt);
  if (au !== bu) return au < bu ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function classify(storageRef: unknown, buckets: { defaultBucket: string; own: Set<string> }): Signable {
  const location = parseStorageRef(storageRef, buckets.defaultBucket);
  if (!location) return { error: "unrecognized_storage_reference" };
  if (!buckets.own.has(location.bucket)) return { error: "foreign_bucket" };
  return location;
}

const empty = { id: null, comment_id: null, title: null, description_short: null, description_long: null, custom_index: null, folder_path: null, excluded_from_reports: false, uploaded_by: null, uploaded_by_name: null, uploaded_by_company_name: null };

export function attachmentCandidates(
  finding: FindingDoc,
  files: FileDoc[],
  comments: CommentDoc[],
  buckets: { defaultBucket: string; own: Set<string> },
): Candidate[] {
  const out: Candidate[] = [];
  const image = finding.locationDetailsImage;
  if (image) {
    out.push({
      row: {
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
      },
      target: classify(image.storageRef, buckets),
    });
  }
  for (const file of [...files].sort(appOrder)) {
    out.push({
      row: {
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
      },
      target: classify(file.storageRef, buckets),
    });
  }
  for (const comment of comments) {
    for (const media of comment.media) {
      out.push({
        row: {
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
        },
        target: classify(media.storageRef, buckets),
      });
    }
  }
  return out;
}
