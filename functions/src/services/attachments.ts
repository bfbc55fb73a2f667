import type { Timestamp } from "firebase-admin/firestore";
import { parseStorageRef } from "../lib/storageRef";
import type { CommentDoc, FileDoc, FindingDoc } from "../repos/findingDocs";

/**
 * A finding's attachments in the spec's order: the location image, then the finding's files
 * in the app's order (customIndex ascending, files without one last, then uploadedAt, then
 * id), then comment files by comment, oldest first. Deleted files are not attachments.
 * Each comes with the object to sign, or why none can be.
 */
export type Signable = { bucket: string; path: string } | { error: "unrecognized_storage_reference" | "foreign_bucket" };

export type AttachmentSource =
  | { kind: "location_details_image"; image: NonNullable<FindingDoc["locationDetailsImage"]> }
  | { kind: "findings_file"; file: FileDoc }
  | { kind: "comment"; comment: CommentDoc; media: CommentDoc["media"][number] };

export interface AttachmentItem {
  source: AttachmentSource;
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

export function classify(storageRef: unknown, buckets: Buckets): Signable {
  const location = parseStorageRef(storageRef, buckets.defaultBucket);
  if (!location) return { error: "unrecognized_storage_reference" };
  if (!buckets.own.has(location.bucket)) return { error: "foreign_bucket" };
  return location;
}

type Buckets = { defaultBucket: string; own: Set<string> };

export function attachmentItems(finding: FindingDoc, files: FileDoc[], comments: CommentDoc[], buckets: Buckets): AttachmentItem[] {
  const out: AttachmentItem[] = [];
  const image = finding.locationDetailsImage;
  if (image) out.push({ source: { kind: "location_details_image", image }, target: classify(image.storageRef, buckets) });
  for (const file of [...files].sort(appOrder)) {
    out.push({ source: { kind: "findings_file", file }, target: classify(file.storageRef, buckets) });
  }
  for (const comment of comments) {
    for (const media of comment.media) out.push({ source: { kind: "comment", comment, media }, target: classify(media.storageRef, buckets) });
  }
  return out;
}
