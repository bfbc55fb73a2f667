import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditLogsCollection, type AuditTarget } from "./auditLogs";
import { nullableString, parseSnapshot, timestamp } from "./stored";

/**
 * `idempotencyKeys/{id}` (docs/firestore-data.md, "Idempotency keys"): one write request of a key
 * under its `Idempotency-Key`, from its first try to its stored answer. What a claim means (replay,
 * refuse, run) is the kernel's (http/idempotency.ts); this file reads and writes.
 */
const collection = () => firestore().collection("idempotencyKeys");

const recordShape = {
  fingerprint: nullableString,
  requestId: nullableString,
  lockedUntil: timestamp,
  expireAt: timestamp,
  answer: nullableString,
};

/** Earlier holders a record keeps (a query of their committed change takes at most 30). */
const MAX_HOLDERS = 10;

/** What a request's claim found. */
export type Claim =
  | { kind: "claimed" }
  | { kind: "mismatch" }
  | { kind: "in_flight"; retryAfterMs: number }
  /** The stored answer, as the kernel wrote it. */
  | { kind: "answered"; answer: string }
  /** The first try stopped before its answer was stored: this request now runs in its place. */
  | { kind: "taken_over"; earlierRequestIds: string[] };

export interface ClaimRequest {
  id: string;
  fingerprint: string;
  requestId: string;
  lockMs: number;
  ttlMs: number;
}

/**
 * Claims the key for this request in one transaction: a new or expired record is created locked
 * for `lockMs`; a stored answer of the same request is returned; a lock that lapsed (its
 * request's instance stopped) passes to this request.
 */
export function claimIdempotencyKey(claim: ClaimRequest): Promise<Claim> {
  const ref = collection().doc(claim.id);
  return firestore().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const now = Date.now();
    const lockedUntil = Timestamp.fromMillis(now + claim.lockMs);
    const found = snap.exists ? parseSnapshot(recordShape, snap) : null;
    if (!found || !found.expireAt || found.expireAt.toMillis() <= now) {
      tx.set(ref, {
        fingerprint: claim.fingerprint,
        requestId: claim.requestId,
        lockedUntil,
        expireAt: Timestamp.fromMillis(now + claim.ttlMs),
      });
      return { kind: "claimed" } as const;
    }
    if (found.fingerprint !== claim.fingerprint) return { kind: "mismatch" } as const;
    if (found.answer !== null) return { kind: "answered", answer: found.answer } as const;
    const left = (found.lockedUntil?.toMillis() ?? 0) - now;
    if (left > 0) return { kind: "in_flight", retryAfterMs: left } as const;
    // Every earlier holder may have committed the change before it stopped (a first try, then a
    // retry stopped too): the first ones are kept, the one most likely to have committed.
    const held = snap.get("holders") as unknown;
    const earlier = [
      ...new Set([
        ...(Array.isArray(held) ? held.filter((id): id is string => typeof id === "string") : []),
        ...(found.requestId ? [found.requestId] : []),
      ]),
    ].slice(0, MAX_HOLDERS);
    tx.update(ref, { requestId: claim.requestId, lockedUntil, holders: earlier });
    return { kind: "taken_over", earlierRequestIds: earlier } as const;
  });
}

/** Stores the answer, unless another request took the key over meanwhile. */
export async function storeIdempotentAnswer(
  id: string,
  requestId: string,
  answer: string,
): Promise<void> {
  const ref = collection().doc(id);
  await firestore().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (snap.get("requestId") !== requestId) return;
    tx.update(ref, { answer, lockedUntil: null });
  });
}

/** Gives the key up (an answer a retry must not see again), unless another request holds it. */
export async function releaseIdempotencyKey(id: string, requestId: string): Promise<void> {
  const ref = collection().doc(id);
  await firestore().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (snap.exists && snap.get("requestId") === requestId) tx.delete(ref);
  });
}

/**
 * The change one of these requests committed, found by its privileged audit entry (written in the
 * change's own transaction, so it exists exactly when the change does); null when none did.
 */
export async function committedChange(
  companyId: string,
  requestIds: readonly string[],
): Promise<{ action: string; target: AuditTarget } | null> {
  if (!requestIds.length) return null;
  const snap = await auditLogsCollection(companyId)
    .where("requestId", "in", requestIds.slice(0, MAX_HOLDERS))
    .limit(10 * MAX_HOLDERS)
    .get();
  const entry = snap.docs.find((d) => d.get("class") === "privileged" && d.get("target"));
  return entry
    ? { action: String(entry.get("action")), target: entry.get("target") as AuditTarget }
    : null;
}
