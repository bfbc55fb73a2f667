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
 * 1), an aggregation 1 per 1,000 index entries (at least 1). Reads of other code running at the
 * same time in the process are counted too: measure one request at a time.
 */
export async function countReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: number }> {
  let reads = 0;
  // DocumentReference.get calls Firestore.getAll itself: that inner call is not counted again.
  let inner = false;
  const billed = (value: unknown): number => {
    if (Array.isArray(value)) return value.length;
    if (value instanceof DocumentSnapshot) return 1;
    if (value instanceof QuerySnapshot) return Math.max(1, value.size);
    // An aggregation's snapshot (the SDK does not export its class).
    const data = (value as { data?: () => { count?: unknown } }).data?.();
    return Math.max(1, Math.ceil(Number(data?.count ?? 0) / 1000));
  };
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
        if (!skip) reads += billed(value);
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
    return { result, reads };
  } finally {
    for (const restore of spies) restore();
  }
}
