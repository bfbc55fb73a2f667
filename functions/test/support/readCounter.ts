import {
  DocumentReference,
  DocumentSnapshot,
  Firestore,
  Query,
  QuerySnapshot,
  Transaction,
} from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";

/**
 * Counts the document reads Firestore bills while `fn` runs in this process, by spying on the
 * Admin SDK's read entry points: a document read is 1, a query's result its documents (at least
 * 1) plus the documents an offset skips, an aggregation 1 per 1,000 index entries (at least 1).
 * Also counted: `requests`, the read calls made (a document get, a query, an aggregation, a
 * getAll), and `documents`, the documents they returned. Reads of other code running at the
 * same time in the process are counted too: measure one request at a time.
 */
export async function countReads<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; reads: number; requests: number; documents: number }> {
  let [reads, requests, documents] = [0, 0, 0];
  // DocumentReference.get calls Firestore.getAll itself: that inner call is not counted again.
  let inner = false;
  const returned = (value: unknown): number =>
    Array.isArray(value)
      ? value.length
      : value instanceof DocumentSnapshot
        ? 1
        : value instanceof QuerySnapshot
          ? value.size
          : 0;
  const billed = (query: unknown, value: unknown): number => {
    if (Array.isArray(value) || value instanceof DocumentSnapshot) return returned(value);
    if (value instanceof QuerySnapshot) return Math.max(1, value.size) + skipped(query);
    // An aggregation's snapshot (the SDK does not export its class).
    // Its count is `count` from `.count()`, `matched` from repos/aggregates' sum-and-count.
    const data = (value as { data?: () => { count?: unknown; matched?: unknown } }).data?.();
    return Math.max(1, Math.ceil(Number(data?.count ?? data?.matched ?? 0) / 1000));
  };
  // An offset's skipped documents are billed too; the SDK keeps the offset in its query options.
  const skipped = (query: unknown): number =>
    query instanceof Query
      ? ((query as unknown as { _queryOptions: { offset?: number } })._queryOptions.offset ?? 0)
      : 0;
  const spies: Array<() => void> = [];
  const spy = (proto: object, name: string, nested = false) => {
    const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = target[name];
    target[name] = function (this: unknown, ...args: unknown[]) {
      const skip = inner && !nested;
      inner = nested;
      const result = original.apply(this, args);
      inner = false;
      return result.then((value) => {
        if (skip) return value;
        reads += billed(this, value);
        requests += 1;
        documents += returned(value);
        return value;
      });
    };
    spies.push(() => (target[name] = original));
  };
  spy(DocumentReference.prototype, "get", true);
  spy(Query.prototype, "get");
  // The SDK does not export AggregateQuery: its prototype is taken from an instance.
  spy(Object.getPrototypeOf(firestore().collection("_").count()) as object, "get");
  spy(Transaction.prototype, "get");
  spy(Transaction.prototype, "getAll");
  spy(Firestore.prototype, "getAll");
  try {
    const result = await fn();
    return { result, reads, requests, documents };
  } finally {
    for (const restore of spies) restore();
  }
}
