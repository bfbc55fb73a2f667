import type { Timestamp } from "firebase-admin/firestore";
import { firstTimeFilter } from "../lib/bounded";
import { parseStorageRef } from "../lib/storageRef";
import { storageRefOutsideProject } from "../logs";
import type { CommentDoc, FileDoc, FindingDoc } from "../repos/findingDocs";

/**
 * A finding's attachments in the spec's order: the location image, then the finding's files
 * in the app's order (customIndex ascending, files without one last, then uploadedAt, then
 * id), then comment files by comment, oldest first. Deleted files are not attachments.
 * Each comes with the object to sign, or why none can be.
 */
export type Signable =
  { bucket: string; path: string } | { error: "unrecognized_storage_reference" | "foreign_bucket" };

export type AttachmentSource =
  | { kind: "location_details_image"; image: NonNullable<FindingDoc["locationDetailsImage"]> }
  | { kind: "findings_file"; file: FileDoc }
  | { kind: "comment"; comment: CommentDoc; media: CommentDoc["media"][number]; index: number };

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

/**
 * Where the app keeps a vessel's files: every object of project P lies under `projects/P/`
 * (docs/firestore-data.md, "Storage references"). Only such objects are signed for a key of
 * project P: a reference to anything else in the deployment's buckets (another vessel's or
 * another company's file) is answered like an unrecognised reference, and logged once.
 */
export const projectFolder = (projectId: string) => `projects/${projectId}/`;

export function classify(storageRef: unknown, buckets: Buckets, projectId: string): Signable {
  const location = parseStorageRef(storageRef, buckets.defaultBucket);
  if (!location) return { error: "unrecognized_storage_reference" };
  if (!buckets.own.has(location.bucket)) return { error: "foreign_bucket" };
  if (!location.path.startsWith(projectFolder(projectId))) {
    noteOutsideProject(projectId);
    return { error: "unrecognized_storage_reference" };
  }
  return location;
}

/** Projects whose references outside their folder this instance has logged already. */
const firstOutsideProject = firstTimeFilter(1000);

function noteOutsideProject(projectId: string): void {
  if (firstOutsideProject(projectId)) storageRefOutsideProject({ projectId });
}

export type Buckets = { defaultBucket: string; own: Set<string> };

export function attachmentItems(
  projectId: string,
  finding: FindingDoc,
  files: FileDoc[],
  comments: CommentDoc[],
  buckets: Buckets,
): AttachmentItem[] {
  const out: AttachmentItem[] = [];
  const target = (storageRef: unknown) => classify(storageRef, buckets, projectId);
  const image = finding.locationDetailsImage;
  if (image)
    out.push({
      source: { kind: "location_details_image", image },
      target: target(image.storageRef),
    });
  for (const file of [...files].sort(appOrder))
    out.push({ source: { kind: "findings_file", file }, target: target(file.storageRef) });
  for (const comment of comments)
    comment.media.forEach((media, index) =>
      out.push({
        source: { kind: "comment", comment, media, index },
        target: target(media.storageRef),
      }),
    );
  return out;
}

/**
 * An attachment's id within its finding, for its content route: `location_details_image`,
 * `file.{file id}`, or `comment.{comment id}.{n}` (the comment's n-th file, from 0).
 */
export function attachmentIdOf(source: AttachmentSource): string {
  switch (source.kind) {
    case "location_details_image":
      return "location_details_image";
    case "findings_file":
      return `file.${source.file.id}`;
    case "comment":
      return `comment.${source.comment.id}.${source.index}`;
  }
}

export type AttachmentRef =
  | { kind: "location_details_image" }
  | { kind: "findings_file"; fileId: string }
  | { kind: "comment"; commentId: string; index: number };

/** The reference an attachment id names, or null when it is no id of ours. */
export function parseAttachmentId(id: string): AttachmentRef | null {
  if (id === "location_details_image") return { kind: "location_details_image" };
  if (id.startsWith("file.") && id.length > 5)
    return { kind: "findings_file", fileId: id.slice(5) };
  const comment = /^comment\.(.+)\.(\d{1,4})$/.exec(id);
  return comment ? { kind: "comment", commentId: comment[1], index: Number(comment[2]) } : null;
}
