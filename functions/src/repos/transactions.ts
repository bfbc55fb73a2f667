import type { Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";

/**
 * Attempts of a contended transaction. Invitations burst on a company's seat counter, group
 * changes and their pages meet on the same users and groups, key creations and rolls on the
 * company's key lock, and an instance stopped mid-transaction holds its locks until Firestore
 * expires them: room for all of these before giving up.
 */
const MAX_ATTEMPTS = 30;

/** Runs of a transaction the Firestore emulator closed (below) before the error is thrown. */
const CLOSED_RUNS = 5;

/**
 * Runs `work` in a read-write transaction that contends with others (so `work` must be
 * repeatable). It runs again when the Firestore emulator closed it: under contention the
 * emulator answers the next read of a transaction it aborted with INVALID_ARGUMENT ("Transaction
 * is invalid or closed"), which the SDK does not retry, where production answers ABORTED, which
 * it does. Any other error is thrown at once.
 */
export async function runContended<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await firestore().runTransaction(work, { maxAttempts: MAX_ATTEMPTS });
    } catch (err) {
      const closed =
        (err as { code?: unknown } | null)?.code === 3 &&
        /Transaction is invalid or closed/.test(String((err as Error).message));
      if (!closed || run >= CLOSED_RUNS) throw err;
    }
  }
}
