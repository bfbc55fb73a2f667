import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { compareInstants, type Instant } from "../lib/dates";
import { isDocumentId } from "../lib/documentId";
import { projectRef } from "./companies";
import {
  commentShape,
  fileShape,
  findingShape,
  type CommentDoc,
  type FileDoc,
  type FindingDoc,
} from "./findingDocs";
import { rangeQuery, streamRows, type Cursor, type RangeQuery } from "./rangeQuery";
import { parseSnapshot, type StoredSnapshot } from "./stored";

/** Reads of one project's findings and their comments and files. */
export type EqualityField = "status" | "system" | "priority";

const findingsOf = (projectId: string) => projectRef(projectId).collection("findings");

const parseFinding = (snap: StoredSnapshot): FindingDoc => parseSnapshot(findingShape, snap);
const parseComment = (snap: StoredSnapshot): CommentDoc => parseSnapshot(commentShape, snap);

/** One page of findings; `convert` sees hidden findings too (they still move the cursor). */
export async function queryFindings<R>(
  projectId: string,
  order: "dateCreated" | "lastEditedDate",
  q: RangeQuery<EqualityField>,
  convert: (finding: FindingDoc) => R,
): Promise<Array<{ row: R; cursor: Cursor }>> {
  return streamRows(await rangeQuery(findingsOf(projectId), order, q), order, (doc) =>
    convert(parseFinding(doc)),
  );
}

/** A visible finding of the project, or null (unknown, hidden, or not a valid id). */
export async function findVisibleFinding(
  projectId: string,
  findingId: string,
): Promise<FindingDoc | null> {
  if (!isDocumentId(findingId)) return null;
  const snap = await findingsOf(projectId).doc(findingId).get();
  if (!snap.exists) return null;
  const finding = parseFinding(snap);
  return finding.hidden ? null : finding;
}

const commentsOf = (projectId: string, findingId: string) =>
  findingsOf(projectId).doc(findingId).collection("comments");

const instantOf = (t: Timestamp): Instant => ({ seconds: t.seconds, nanos: t.nanoseconds });
/** Comment order: without a readable `createdAt` first, then by `createdAt`, then by id. */
function compareComments(
  a: { createdAt: Timestamp | null; id: string },
  b: { createdAt: Timestamp | null; id: string },
): number {
  const byTime =
    a.createdAt && b.createdAt
      ? compareInstants(instantOf(a.createdAt), instantOf(b.createdAt))
      : (a.createdAt ? 1 : 0) - (b.createdAt ? 1 : 0);
  return byTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * A finding's whole thread, in comment order. Read whole rather than with orderBy('createdAt'):
 * an ordered query silently leaves out comments that lack the field, and sorts values of other
 * types after every timestamp; here both sort first with the null ones, as documented.
 */
export async function allComments(projectId: string, findingId: string): Promise<CommentDoc[]> {
  const snap = await commentsOf(projectId, findingId).get();
  return snap.docs.map(parseComment).sort(compareComments);
}

/**
 * At most `max` comments of the thread (the first by document id when it has more), in
 * comment order, and whether they are the whole thread: a bounded read for attachments.
 */
export async function boundedThread(
  projectId: string,
  findingId: string,
  max: number,
): Promise<{ comments: CommentDoc[]; complete: boolean }> {
  const snap = await commentsOf(projectId, findingId)
    .limit(max + 1)
    .get();
  return {
    comments: snap.docs.slice(0, max).map(parseComment).sort(compareComments),
    complete: snap.size <= max,
  };
}

/** Firestore's smallest timestamp: `>=` it matches every timestamp and nothing else. */
const MIN_TIMESTAMP = new Timestamp(-62135596800, 0);
const MIN_INSTANT: Instant = { seconds: MIN_TIMESTAMP.seconds, nanos: 0 };

/**
 * Whether the ordered query sees the whole thread: every comment's `createdAt` is a timestamp
 * or null. Three count aggregations (a read per 1,000 entries each) instead of reading the thread.
 */
async function threadIsOrdered(projectId: string, findingId: string): Promise<boolean> {
  const comments = commentsOf(projectId, findingId);
  const [all, dated, unset] = await Promise.all([
    comments.count().get(),
    comments.where("createdAt", ">=", MIN_TIMESTAMP).count().get(),
    comments.where("createdAt", "==", null).count().get(),
  ]);
  return all.data().count === dated.data().count + unset.data().count;
}

/**
 * One page of the thread, in comment order. The ordered query when it sees every comment, or
 * when the page can only hold timestamps; otherwise (a page among the comments without a
 * timestamp, usually the first) the thread read whole and paged in memory by exactly the same
 * rules, so page tokens work across both.
 */
export async function queryComments(
  projectId: string,
  findingId: string,
  q: RangeQuery,
): Promise<Array<{ comment: CommentDoc; cursor: Cursor }>> {
  // Comments without a timestamp sort first, and `from` leaves them out: with `from`, or past a
  // timestamp cursor, only timestamps remain, and the ordered query restricted to timestamps is
  // exact whatever else the thread holds (no counts, no whole-thread read).
  const timestampsOnly = q.from !== undefined || q.after?.value instanceof Timestamp;
  if (timestampsOnly || (await threadIsOrdered(projectId, findingId))) {
    const bounded = timestampsOnly ? { ...q, from: q.from ?? MIN_INSTANT } : q;
    const rows = await streamRows(
      await rangeQuery(commentsOf(projectId, findingId), "createdAt", bounded),
      "createdAt",
      parseComment,
    );
    return rows.map(({ row, cursor }) => ({ comment: row, cursor }));
  }
  const after = q.after && {
    createdAt: q.after.value instanceof Timestamp ? q.after.value : null,
    id: q.after.id,
  };
  return (await allComments(projectId, findingId))
    .filter(
      (c) =>
        !q.from || (c.createdAt !== null && compareInstants(instantOf(c.createdAt), q.from) >= 0),
    )
    .filter(
      (c) => !q.to || c.createdAt === null || compareInstants(instantOf(c.createdAt), q.to) < 0,
    )
    .filter((c) => !after || compareComments(c, after) > 0)
    .slice(0, q.limit)
    .map((comment) => ({ comment, cursor: { value: comment.createdAt, id: comment.id } }));
}

/** The finding's files that are attachments (not deleted), unordered. */
export async function liveFiles(projectId: string, findingId: string): Promise<FileDoc[]> {
  const snap = await findingsOf(projectId).doc(findingId).collection("files").get();
  return snap.docs.map((doc) => parseSnapshot(fileShape, doc)).filter((file) => !file.deleted);
}

/**
 * The findings with these ids, as stored now (hidden ones too); an absent id is a deleted finding.
 */
export async function findingsByIds(
  projectId: string,
  ids: readonly string[],
): Promise<Map<string, FindingDoc>> {
  if (!ids.length) return new Map();
  const snaps = await firestore().getAll(...ids.map((id) => findingsOf(projectId).doc(id)));
  return new Map(snaps.filter((s) => s.exists).map((s) => [s.id, parseFinding(s)]));
}

/** One file record of the finding, deleted or not, or null (unknown, or not a valid id). */
export async function findFile(
  projectId: string,
  findingId: string,
  fileId: string,
): Promise<FileDoc | null> {
  if (!isDocumentId(fileId)) return null;
  const snap = await findingsOf(projectId).doc(findingId).collection("files").doc(fileId).get();
  return snap.exists ? parseSnapshot(fileShape, snap) : null;
}

/** One comment of the finding, or null (unknown, or not a valid id). */
export async function findComment(
  projectId: string,
  findingId: string,
  commentId: string,
): Promise<CommentDoc | null> {
  if (!isDocumentId(commentId)) return null;
  const snap = await commentsOf(projectId, findingId).doc(commentId).get();
  return snap.exists ? parseComment(snap) : null;
}
