import { afterFinding, type Position } from "../lib/docPosition";
import type { CommentDoc } from "../repos/findingDocs";
import { scanComments, visibleFindingIds } from "../repos/vesselScans";

/**
 * One page of a vessel's comments in document-path order (finding id, then comment id), those
 * of hidden (or missing) findings left out. Reads per page: `limit + 1` comments and one read
 * per distinct finding among them. A page that ends inside a hidden finding resumes after
 * all of it, so a hidden finding's thread costs at most one page however long it is.
 */
export interface VesselCommentPage {
  rows: Array<{ findingId: string; comment: CommentDoc } | null>;
  resume: Position | null;
}

export async function vesselCommentPage(
  projectId: string,
  after: Position | undefined,
  limit: number,
): Promise<VesselCommentPage> {
  const scanned = await scanComments(projectId, { after, limit: limit + 1 });
  const page = scanned.docs.slice(0, limit);
  const visible = await visibleFindingIds(projectId, [...new Set(page.map((c) => c.findingId))]);
  const rows = page.map(({ findingId, doc }) =>
    visible.has(findingId) ? { findingId, comment: doc } : null,
  );
  if (!scanned.end) return { rows, resume: null };
  // Only documents of other shapes were read (see scanComments): resume after them.
  if (!page.length) return { rows, resume: scanned.end };
  const last = page[page.length - 1];
  const stop = { segments: last.segments, index: null };
  return { rows, resume: visible.has(last.findingId) ? stop : afterFinding(last.findingId) };
}
