import {
  FieldPath,
  Timestamp,
  type CollectionReference,
  type Query,
  type QueryDocumentSnapshot,
} from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import type { Instant } from "../lib/dates";

/**
 * Ordered, cursor-paged reads shared by every list endpoint. Each query orders by one field
 * and then by document id, so a (value, id) cursor resumes exactly after the last document
 * read. The cursor keeps the stored value itself, whatever its type (see cursorCodec.ts).
 */
export interface Cursor {
  value: unknown;
  id: string;
  /** Resume after the document's current order value (values too long to carry in a token). */
  bySnapshot?: boolean;
}

/** The document a snapshot cursor resumes after is gone: the listing must restart. */
export class StaleCursorError extends Error {
  constructor() {
    super("the document the page token resumes after no longer exists");
    this.name = "StaleCursorError";
  }
}

export interface RangeQuery<E extends string = string> {
  /** Inclusive lower bound on the order field (excludes nulls and values of other types). */
  from?: Instant;
  /** Exclusive upper bound, as an end cursor: nulls sort first and stay in. */
  to?: Instant;
  equality?: { field: E; value: string };
  /** Equality filters every page has (e.g. the company of a top-level collection). */
  fixed?: Record<string, unknown>;
  after?: Cursor;
  limit: number;
  direction?: "asc" | "desc";
}

export const toTimestamp = (i: Instant) => new Timestamp(i.seconds, i.nanos);

async function startAfter(query: Query, base: CollectionReference, after: Cursor): Promise<Query> {
  if (!after.bySnapshot) return query.startAfter(after.value, after.id);
  const snap = await base.doc(after.id).get();
  if (!snap.exists) throw new StaleCursorError();
  return query.startAfter(snap);
}

export async function rangeQuery(
  base: CollectionReference,
  order: string,
  q: RangeQuery,
): Promise<Query> {
  const direction = q.direction ?? "asc";
  let query = base.orderBy(order, direction).orderBy(FieldPath.documentId(), direction);
  for (const [field, value] of Object.entries(q.fixed ?? {}))
    query = query.where(field, "==", value);
  if (q.equality) query = query.where(q.equality.field, "==", q.equality.value);
  if (direction === "asc") {
    if (q.from) query = query.where(order, ">=", toTimestamp(q.from));
    if (q.after) query = await startAfter(query, base, q.after);
    if (q.to) query = query.endBefore(toTimestamp(q.to));
  } else {
    // Newest first: both bounds are range filters (nulls, which sort last, are left out of a
    // window).
    if (q.from) query = query.where(order, ">=", toTimestamp(q.from));
    if (q.to) query = query.where(order, "<", toTimestamp(q.to));
    if (q.after) query = await startAfter(query, base, q.after);
  }
  return query.limit(q.limit);
}

/**
 * A row's cursor. `order` is a FieldPath made once per query: `get` with a string checks and
 * splits it for every row.
 */
export function cursorOf(snap: QueryDocumentSnapshot, order: FieldPath): Cursor {
  return { value: snap.get(order) ?? null, id: snap.id };
}

/**
 * Streams the query and converts each document as it arrives, so parsing overlaps the
 * transfer of the rest of the page instead of following it.
 */
export function streamRows<R>(
  query: Query,
  order: string,
  convert: (snap: QueryDocumentSnapshot) => R,
): Promise<Array<{ row: R; cursor: Cursor }>> {
  return new Promise((resolve, reject) => {
    const rows: Array<{ row: R; cursor: Cursor }> = [];
    const orderPath = new FieldPath(...order.split(".")); // as `get(order)` reads a dotted name
    const stream = query.stream() as NodeJS.ReadableStream & { destroy(): void };
    stream.on("data", (doc: QueryDocumentSnapshot) => {
      try {
        rows.push({ row: convert(doc), cursor: cursorOf(doc, orderPath) });
      } catch (err) {
        stream.destroy();
        reject(err);
      }
    });
    stream.on("error", reject);
    stream.on("end", () => resolve(rows));
  });
}

/** A document reference from a stored path (cursors whose order value is a reference). */
export const referenceAt = (path: string) => firestore().doc(path);
