import type { DocumentData, DocumentReference, DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";

/**
 * Document reads requested in the same tick go out together, as one `getAll` round trip (four
 * separate gets in parallel cost about twice as long against Firestore as one `getAll` of the
 * four). Authentication reads the key, its company, its project and its usage counter this way,
 * and the snapshots share one read time. The same document asked for twice is read once.
 */
interface Waiting {
  ref: DocumentReference;
  settle: Array<{ resolve: (snap: DocumentSnapshot) => void; reject: (err: unknown) => void }>;
}

/** Documents per `getAll` (a request of its own beyond that). */
const MAX_PER_CALL = 100;

let queued: Map<string, Waiting> | null = null;

function flush(): void {
  const waiting = [...queued!.values()];
  queued = null;
  for (let i = 0; i < waiting.length; i += MAX_PER_CALL) {
    const chunk = waiting.slice(i, i + MAX_PER_CALL);
    const fail = (err: unknown) => chunk.forEach((w) => w.settle.forEach((s) => s.reject(err)));
    // Started inside a promise, so even a synchronous throw reaches the waiting reads.
    Promise.resolve()
      .then(() => firestore().getAll(...chunk.map((w) => w.ref)))
      .then((snaps) => snaps.forEach((snap, j) => chunk[j].settle.forEach((s) => s.resolve(snap))))
      .catch(fail);
  }
}

/** `ref.get()`, batched with the other reads of this tick. */
export function readDoc<T = DocumentData>(ref: DocumentReference<T>): Promise<DocumentSnapshot<T>> {
  return new Promise((resolve, reject) => {
    if (!queued) {
      queued = new Map();
      queueMicrotask(flush);
    }
    const waiting = queued.get(ref.path) ?? { ref: ref as DocumentReference, settle: [] };
    waiting.settle.push({ resolve: resolve as (snap: DocumentSnapshot) => void, reject });
    queued.set(ref.path, waiting);
  });
}
