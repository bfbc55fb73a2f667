/**
 * Positions in a vessel's findings tree, for the vessel-wide listings. A position is a document
 * path relative to `projects/{p}/findings` (`F`, `F/comments/C`, `F/files/X`) and, for a
 * comment's files, the index of one file in the comment; `index: null` stands after every row
 * of the document. Positions sort as Firestore sorts document paths (segment by segment, each
 * by its UTF-8 bytes), so a collection-group query ordered by document id resumes after one.
 */
export interface Position {
  segments: string[];
  index: number | null;
}

/**
 * A position after every document under finding F and before any of the next finding: the
 * segment sorts after the collection ids below a finding (`comments`, `files`). How a page
 * steps over a hidden finding without reading the rest of its subtree.
 */
export const AFTER_SUBTREE = "\uf8ff";

export const afterFinding = (findingId: string): Position => ({
  segments: [findingId, AFTER_SUBTREE, AFTER_SUBTREE],
  index: null,
});

function compareSegment(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Path order, then index order (a document's own end, `null`, after all its indexes). */
export function comparePositions(a: Position, b: Position): number {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const bySegment = compareSegment(a.segments[i], b.segments[i]);
    if (bySegment) return bySegment;
  }
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  const ai = a.index ?? Number.POSITIVE_INFINITY;
  const bi = b.index ?? Number.POSITIVE_INFINITY;
  return ai === bi ? 0 : ai < bi ? -1 : 1;
}

/** The earlier of two bounds, where null is no bound (the end of everything). */
export function earliest(a: Position | null, b: Position | null): Position | null {
  if (!a || !b) return a ?? b;
  return comparePositions(b, a) < 0 ? b : a;
}

/** As a page cursor (see repos/cursorCodec.ts): the relative path as id, the index as value. */
export const positionCursor = (p: Position) => ({ value: p.index, id: p.segments.join("/") });

/** A cursor back, or null when it is no position (an odd number of segments, none empty). */
export function cursorPosition(cursor: { value: unknown; id: string }): Position | null {
  const segments = cursor.id.split("/");
  if (segments.some((s) => !s) || segments.length % 2 !== 1) return null;
  const { value } = cursor;
  if (value === null) return { segments, index: null };
  return typeof value === "number" && Number.isInteger(value) && value >= 0
    ? { segments, index: value }
    : null;
}
