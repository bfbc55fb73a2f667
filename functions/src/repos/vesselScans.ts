import { FieldPath, type Query, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import type { Position } from "../lib/docPosition";
import {
  commentShape,
  fileShape,
  findingShape,
  type CommentDoc,
  type FileDoc,
  type FindingDoc,
} from "./findingDocs";
import { parseSnapshot } from "./stored";

/**
 * Reads across all of a vessel's findings in document-path order, for the vessel-wide
 * listings: a collection-group query (`comments`, `files`) ordered by document id and held
 * between two bounds that enclose exactly `projects/{p}/findings/…`, or the findings themselves
 * by id. Ordering a collection group by document id alone needs no composite index.
 */
const findingsPath = (projectId: string) => `projects/${projectId}/findings`;

/** Before every document under the project's findings (`\u0000` is the smallest id). */
const lowerBound = (projectId: string) => firestore().doc(`${findingsPath(projectId)}/\u0000`);
/** After them, before any other collection of the project (`findings\u0000` sorts next). */
const upperBound = (projectId: string) =>
  firestore().doc(`projects/${projectId}/findings\u0000/\u0000`);

const refAt = (projectId: string, p: Position) =>
  firestore().doc(`${findingsPath(projectId)}/${p.segments.join("/")}`);

/** The document's position relative to the findings collection (`F/comments/C`). */
const segmentsOf = (projectId: string, snap: QueryDocumentSnapshot) =>
  snap.ref.path.slice(findingsPath(projectId).length + 1).split("/");

export interface Scan {
  /** Resume after this position; a comment position with an index starts at that comment. */
  after?: Position;
  /** Read no document after this one. */
  until?: Position;
  limit: number;
}

export interface Scanned<D> {
  findingId: string;
  segments: string[];
  doc: D;
}

/**
 * The documents read, and `end`: the position of the last one when the scan read `limit`
 * (more may follow), null when it read everything up to its bound.
 */
export interface ScanResult<D> {
  docs: Array<Scanned<D>>;
  end: Position | null;
}

function endOf(projectId: string, snaps: QueryDocumentSnapshot[], limit: number): Position | null {
  const last = snaps[snaps.length - 1];
  return snaps.length >= limit ? { segments: segmentsOf(projectId, last), index: null } : null;
}

async function scanGroup<D>(
  projectId: string,
  group: "comments" | "files",
  scan: Scan,
  parse: (snap: QueryDocumentSnapshot) => D,
  fields?: string[],
): Promise<ScanResult<D>> {
  let query: Query = firestore().collectionGroup(group).orderBy(FieldPath.documentId());
  if (fields) query = query.select(...fields);
  const { after } = scan;
  query =
    after && after.index !== null
      ? query.startAt(refAt(projectId, after))
      : query.startAfter(after ? refAt(projectId, after) : lowerBound(projectId));
  query = scan.until
    ? query.endAt(refAt(projectId, scan.until))
    : query.endBefore(upperBound(projectId));
  const snap = await query.limit(scan.limit).get();
  const docs = snap.docs.flatMap((doc) => {
    const segments = segmentsOf(projectId, doc);
    // Only F/comments/C and F/files/X: a same-named collection deeper down is not the vessel's.
    if (segments.length !== 3) return [];
    return [{ findingId: segments[0], segments, doc: parse(doc) }];
  });
  return { docs, end: endOf(projectId, snap.docs, scan.limit) };
}

const parseComment = (snap: QueryDocumentSnapshot): CommentDoc => parseSnapshot(commentShape, snap);
const parseFile = (snap: QueryDocumentSnapshot): FileDoc => parseSnapshot(fileShape, snap);

/** The vessel's comments in path order (finding id, then comment id), hidden findings' too. */
export const scanComments = (projectId: string, scan: Scan) =>
  scanGroup(projectId, "comments", scan, parseComment);

/** Only what an attachment row needs of a comment: its files and its author. */
export const scanCommentMedia = (projectId: string, scan: Scan) =>
  scanGroup(projectId, "comments", scan, parseComment, ["media", "authorId", "authorName"]);

/** The vessel's file records in path order (finding id, then file id), deleted ones too. */
export const scanFiles = (projectId: string, scan: Scan) =>
  scanGroup(projectId, "files", scan, parseFile);

/**
 * The vessel's findings by id from the finding of `after` (inclusive) to that of `until`
 * (inclusive), reading only `hidden` and the location image.
 */
export async function scanFindingImages(
  projectId: string,
  scan: Scan,
): Promise<ScanResult<FindingDoc>> {
  const base = firestore().collection(findingsPath(projectId));
  let query = base.orderBy(FieldPath.documentId()).select("hidden", "locationDetailsImage");
  if (scan.after) query = query.startAt(scan.after.segments[0]);
  if (scan.until) query = query.endAt(scan.until.segments[0]);
  const snap = await query.limit(scan.limit).get();
  const docs = snap.docs.map((doc) => ({
    findingId: doc.id,
    segments: [doc.id],
    doc: parseSnapshot(findingShape, doc),
  }));
  return { docs, end: endOf(projectId, snap.docs, scan.limit) };
}

/** Which of these findings exist and are visible: one read each (only `hidden` is fetched). */
export async function visibleFindingIds(projectId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const base = firestore().collection(findingsPath(projectId));
  const snaps = await firestore().getAll(...ids.map((id) => base.doc(id)), {
    fieldMask: ["hidden"],
  });
  return new Set(
    snaps
      .filter((snap) => snap.exists && !parseSnapshot(findingShape, snap).hidden)
      .map((snap) => snap.id),
  );
}
