import type { FindingDoc } from "../repos/findingDocs";
import { findComment, findFile } from "../repos/findings";
import { classify, type AttachmentItem, type AttachmentRef, type Buckets } from "./attachments";

/**
 * The attachment an id names on a visible finding, with the object to sign, or null when the
 * finding has no such attachment (a deleted file is none, as in the listings). One read at most.
 */
export async function attachmentOf(
  projectId: string,
  finding: FindingDoc,
  ref: AttachmentRef,
  buckets: Buckets,
): Promise<AttachmentItem | null> {
  const target = (storageRef: unknown) => classify(storageRef, buckets, projectId);
  switch (ref.kind) {
    case "location_details_image": {
      const image = finding.locationDetailsImage;
      return image
        ? { source: { kind: "location_details_image", image }, target: target(image.storageRef) }
        : null;
    }
    case "findings_file": {
      const file = await findFile(projectId, finding.id, ref.fileId);
      return file && !file.deleted
        ? { source: { kind: "findings_file", file }, target: target(file.storageRef) }
        : null;
    }
    case "comment": {
      const comment = await findComment(projectId, finding.id, ref.commentId);
      const media = comment?.media[ref.index];
      return comment && media
        ? {
            source: { kind: "comment", comment, media, index: ref.index },
            target: target(media.storageRef),
          }
        : null;
    }
  }
}
