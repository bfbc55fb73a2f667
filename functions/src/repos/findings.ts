import { FieldPath, Timestamp, type Query, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { z } from "../http/zod";
import type { Instant } from "../lib/dates";
import { commentDoc, fileDoc, findingDoc, type CommentDoc, type FileDoc, type FindingDoc } from "./findingDocs";
import { projectRef } from "./projects";
import { parseStored } from "./stored";

/**
 * Reads of one project's findings. Every query orders by one timestamp field and then by
 * document id, so a (timestamp, id) cursor resumes exactly after the last document read.
 */
export type OrderField = "dateCreated" | "lastEditedDate" | "createdAt";
export type EqualityField = "status" | "system" | "priority";

/** Position after which a page starts: the last read document's order value and id. */
export type Cursor = [seconds: number | null, nanos: number | null, id: string];

export interface RangeQuery {
  /** Inclusive lower bound on the order field (excludes null values). */
  from?: Instant;
  /** Exclusive upper bound on the order field, as an end cursor: nulls sort first and stay in. */
  to?: Instant;
  equality?: { field: EqualityField; value: string };
  after?: Cursor;
  limit: number;
}

/** The composite index a query needs, or null when single-field indexes serve it. */
export interface IndexNeed {
  collectionGroup: string;
  fields: Array<{ fieldPath: string; order: "ASCENDING" }>;
}

const ts = (i: Instant) => new Timestamp(i.seconds, i.nanos);
const findingsOf = (projectId: string) => projectRef(projectId).collection("findings");

export function indexNeed(collectionGroup: string, order: OrderField, equality?: EqualityField): IndexNeed | null {
  if (!equality) return null;
  return { collectionGroup, fields: [{ fieldPath: equality, order: "ASCENDING" }, { fieldPath: order, order: "ASCENDING" }] };
}

function rangeQuery(base: Query, order: OrderField, q: RangeQuery): Query {
  let query = base.orderBy(order, "asc").orderBy(FieldPath.documentId(), "asc");
  if (q.equality) query = query.where(q.equality.field, "==", q.equality.value);
  if (q.from) query = query.where(order, ">=", ts(q.from));
  if (q.after) {
    const [seconds, nanos, id] = q.after;
    query = query.startAfter(seconds === null ? null : new Timestamp(seconds, nanos ?? 0), id);
  }
  if (q.to) query = query.endBefore(ts(q.to));
  return query.limit(q.limit);
}

export function cursorOf(snap: QueryDocumentSnapshot, order: OrderField): Cursor {
  const value = snap.get(order);
  return value instanceof Timestamp ? [value.seconds, value.nanoseconds, snap.id] : [null, null, snap.id];
}

function parseFinding(snap: { id: string; ref: { path: string }; data(): unknown }): FindingDoc {
  return { id: snap.id, ...parseStored(findingDoc, snap.ref.path, snap.data()) };
}

/**
 * Streams the query and converts each document as it arrives, so parsing overlaps the
 * transfer of the rest of the page instead of following it. `convert` sees hidden findings
 * too (they still move the cursor).
 */
export function queryFindings<R>(
  projectId: string,
  order: "dateCreated" | "lastEditedDate",
  q: RangeQuery,
  convert: (finding: FindingDoc) => R,
): Promise<Array<{ row: R; cursor: Cursor }>> {
  return new Promise((resolve, reject) => {
    const rows: Array<{ row: R; cursor: Cursor }> = [];
    const stream = rangeQuery(findingsOf(projectId), order, q).stream() as NodeJS.ReadableStream & { destroy(): void };
    stream.on("data", (doc: QueryDocumentSnapshot) => {
      try {
        rows.push({ row: convert(parseFinding(doc)), cursor: cursorOf(doc, order) });
      } catch (err) {
        stream.destroy();
        reject(err);
      }
    });
    stream.on("error", reject);
    stream.on("end", () => resolve(rows));
  });
}

/** Firestore document ids: no slash, not `.`/`..`, not `__…__`, at most 1,500 bytes. */
export const documentId = z
  .string()
  .min(1)
  .refine((id) => !id.includes("/") && id !== "." && id !== ".." && !/^__.*__$/.test(id) && Buffer.byteLength(id) <= 1500);

/** A visible finding of the project, or null (unknown, hidden, or not a valid id). */
export async function findVisibleFinding(projectId: string, findingId: string): Promise<FindingDoc | null> {
  if (!documentId.safeParse(findingId).success) return null;
  const snap = await findingsOf(projectId).doc(findingId).get();
  if (!snap.exists) return null;
  const finding = parseFinding(snap);
  return finding.hidden ? null : finding;
}

function parseComment(snap: { id: string; ref: { path: string }; data(): unknown }): CommentDoc {
  return { id: snap.id, ...parseStored(commentDoc, snap.ref.path, snap.data()) };
}

const commentsOf = (projectId: string, findingId: string) => findingsOf(projectId).doc(findingId).collection("comments");

export async function queryComments(projectId: string, findingId: string, q: RangeQuery) {
  const snap = await rangeQuery(commentsOf(projectId, findingId), "createdAt", q).get();
  return snap.docs.map((doc) => ({
    comment: parseComment(doc),
    cursor: cursorOf(doc, "createdAt"),
  }));
}

/** All comments of a finding, oldest first (attachments need every comment's media). */
export async function allComments(projectId: string, findingId: string): Promise<CommentDoc[]> {
  const snap = await commentsOf(projectId, findingId).orderBy("createdAt", "asc").orderBy(FieldPath.documentId(), "asc").get();
  return snap.docs.map(parseComment);
}

/** The finding's files that are attachments (not deleted), unordered. */
export async function liveFiles(projectId: string, findingId: string): Promise<FileDoc[]> {
  const snap = await findingsOf(projectId).doc(findingId).collection("files").get();
  return snap.docs
    .map((doc) => ({ id: doc.id, ...parseStored(fileDoc, doc.ref.path, doc.data()) }))
    .filter((file) => !file.deleted);
}
