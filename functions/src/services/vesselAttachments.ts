import { afterFinding, comparePositions, earliest, type Position } from "../lib/docPosition";
import { scanCommentMedia, scanFiles, scanFindingImages } from "../repos/vesselScans";
import { classify, type AttachmentItem, type Buckets } from "./attachments";

/**
 * One page of a vessel's attachments in document-path order: per finding (by id) its location
 * image, then its comments' files (by comment id, each comment's in their order), then its file
 * records (by id). Three bounded scans, each stopping where the one before it filled up:
 * files (`limit + 1`), comments (up to SCAN_FACTOR × that: most comments carry no file) and
 * findings (as many: most have no location image; they also tell which findings are visible).
 * Rows up to the first point where a scan filled up are complete; the page ends there at the
 * latest. Reads per page: at most (1 + 2 × SCAN_FACTOR) × (limit + 1) documents.
 */
export const SCAN_FACTOR = 4;

export interface VesselAttachment {
  findingId: string;
  item: AttachmentItem;
  position: Position;
}

/** Where the page may resume, or null when the vessel has no further rows. */
export interface VesselAttachmentPage {
  rows: VesselAttachment[];
  resume: Position | null;
}

export async function vesselAttachmentPage(
  projectId: string,
  after: Position | undefined,
  limit: number,
  buckets: Buckets,
): Promise<VesselAttachmentPage> {
  const target = (storageRef: unknown) => classify(storageRef, buckets, projectId);
  const fileLimit = limit + 1;
  const scanLimit = SCAN_FACTOR * fileLimit;

  const files = await scanFiles(projectId, { after, limit: fileLimit });
  let horizon = files.end;
  const comments = await scanCommentMedia(projectId, {
    after,
    until: horizon ?? undefined,
    limit: scanLimit,
  });
  horizon = earliest(horizon, comments.end);
  const findings = await scanFindingImages(projectId, {
    after,
    until: horizon ?? undefined,
    limit: scanLimit,
  });
  horizon = earliest(horizon, findings.end);

  const visible = new Set(findings.docs.filter((f) => !f.doc.hidden).map((f) => f.findingId));
  const rows: VesselAttachment[] = [];
  for (const { findingId, segments, doc } of findings.docs) {
    const image = doc.locationDetailsImage;
    if (image)
      rows.push({
        findingId,
        position: { segments, index: null },
        item: {
          source: { kind: "location_details_image", image },
          target: target(image.storageRef),
        },
      });
  }
  for (const { findingId, segments, doc: comment } of comments.docs)
    comment.media.forEach((media, index) =>
      rows.push({
        findingId,
        position: { segments, index },
        item: {
          source: { kind: "comment", comment, media, index },
          target: target(media.storageRef),
        },
      }),
    );
  for (const { findingId, segments, doc: file } of files.docs)
    if (!file.deleted)
      rows.push({
        findingId,
        position: { segments, index: null },
        item: { source: { kind: "findings_file", file }, target: target(file.storageRef) },
      });

  const inWindow = rows
    .filter((r) => visible.has(r.findingId))
    .filter((r) => !after || comparePositions(r.position, after) > 0)
    .filter((r) => !horizon || comparePositions(r.position, horizon) <= 0)
    .sort((a, b) => comparePositions(a.position, b.position));
  const page = inWindow.slice(0, limit);
  if (inWindow.length > limit) return { rows: page, resume: page[page.length - 1].position };
  if (!horizon) return { rows: page, resume: null };
  // The page ends inside a hidden finding: the next one starts after all of it.
  const stop = horizon.segments[0];
  return { rows: page, resume: visible.has(stop) ? horizon : afterFinding(stop) };
}
