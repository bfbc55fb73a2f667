import { AggregateField, type Query, type WhereFilterOp } from "firebase-admin/firestore";
import { distinctValuesCapped } from "../logs";
import { companyRef } from "./companies";

/**
 * Aggregation queries over one company's collections: counts and sums computed by Firestore
 * from its indexes (billed one read per 1,000 index entries), never by reading the documents.
 * What each query asks is the services' business; this file only runs them.
 */
export type Filter = [
  field: string,
  op: Extract<WhereFilterOp, "==" | ">=" | ">" | "<" | "<=">,
  value: unknown,
];

export interface Aggregation {
  /** A subcollection of `companies/{companyId}`, e.g. `incidents`. */
  collection: string;
  filters: Filter[];
  /** Sum this field; count documents when absent. */
  sum?: string;
}

/**
 * Whether a document (fields as stored, Dates for Timestamps) passes the filters as Firestore
 * would decide: `==` on equal values only, ranges only between values of the same type.
 */
export function matchesFilters(
  data: Readonly<Record<string, unknown>>,
  filters: readonly Filter[],
): boolean {
  const comparable = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  return filters.every(([field, op, value]) => {
    const [a, b] = [comparable(data[field]), comparable(value)];
    if (op === "==") return a === b && data[field] instanceof Date === value instanceof Date;
    const sameKind =
      (typeof a === "number" || typeof a === "string") &&
      typeof a === typeof b &&
      data[field] instanceof Date === value instanceof Date;
    if (!sameKind) return false;
    const [x, y] = [a, b as number | string];
    return op === ">=" ? x >= y : op === ">" ? x > y : op === "<" ? x < y : x <= y;
  });
}

function filtered(companyId: string, collection: string, filters: Filter[]): Query {
  let query: Query = companyRef(companyId).collection(collection);
  for (const [field, op, value] of filters) query = query.where(field, op, value);
  return query;
}

export async function aggregate(companyId: string, spec: Aggregation): Promise<number> {
  const query = filtered(companyId, spec.collection, spec.filters);
  // The count rides along in the same query (no extra read): it is what the query is billed by.
  const snap = await query
    .aggregate(
      spec.sum
        ? { value: AggregateField.sum(spec.sum), matched: AggregateField.count() }
        : { matched: AggregateField.count() },
    )
    .get();
  const { matched, value } = snap.data() as { matched: number; value?: number | null };
  return spec.sum ? (value ?? 0) : matched;
}

/**
 * The distinct values of a field, without reading every document: each step reads the one
 * document after the previous value (`orderBy(field).startAfter(value).limit(1)`), so a field
 * with k distinct values costs k + 1 single-document queries whatever the collection's size.
 * Documents without the field are not ordered by it and so never visited. Stops at `max`.
 */
export async function distinctValues(
  companyId: string,
  collection: string,
  field: string,
  max = 100,
): Promise<unknown[]> {
  const values: unknown[] = [];
  const ordered = companyRef(companyId)
    .collection(collection)
    .orderBy(field)
    .select(field)
    .limit(1);
  let query: Query = ordered;
  while (values.length < max) {
    const snap = await query.get();
    if (snap.empty) break;
    const value: unknown = snap.docs[0].get(field);
    values.push(value);
    // A cursor of the first order field only: after every document holding this value.
    query = ordered.startAfter(value);
  }
  if (values.length >= max) distinctValuesCapped({ companyId, collection, field, max });
  return values;
}
