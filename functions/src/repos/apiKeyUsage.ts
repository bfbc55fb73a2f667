import {
  Timestamp,
  type DocumentReference,
  type DocumentSnapshot,
  type WriteBatch,
} from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { setBounded } from "../lib/bounded";
import { apiKeysCollection, usageRef } from "./apiKeys";

/**
 * `apiKeyUsage/{keyHash}`: API-owned window counters, one document per key, kept apart from
 * `apiKeys` so the per-request write never contends with key management.
 *
 * Exactness without lock contention: requests on one key inside one instance are group-
 * committed (one read, one write for all of them); across instances the write is a
 * compare-and-swap (`create`, or `update` with the read's `updateTime` as precondition),
 * retried on conflict. Every admitted request is therefore backed by a successful swap from
 * a count below the limit: with a limit of 60, never more than 60 pass in a window.
 */
export interface UsageState {
  minuteWindow: number;
  minuteCount: number;
  dayWindow: number;
  dayCount: number;
}

/**
 * Per-key limits: the default, or the override of `companies.rateLimits` / `apiKeys.rateLimits`.
 */
export interface Limits {
  perMinute: number;
  perDay: number;
}

/**
 * What the store needs of a decision: admitted or not, the state to store, and whether to touch
 * `lastUsedAt`.
 */
export interface UsageDecision {
  allowed: boolean;
  next: UsageState;
  firstInMinute: boolean;
}

/**
 * Decides `count` requests arriving together from the stored state (services/rateLimit's
 * arithmetic).
 */
export type DecideBatch<D extends UsageDecision> = (
  stored: UsageState | undefined,
  nowMs: number,
  count: number,
) => D[];

const MAX_ATTEMPTS = 40;
const ALREADY_EXISTS = 6;
const FAILED_PRECONDITION = 9;

export class UsageContentionError extends Error {
  constructor() {
    super("rate-limit counter still contended after retries");
    this.name = "UsageContentionError";
  }
}

/** Shard `i` of a key's counter (docs/firestore-data.md): shard 0 is the key's own document. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === ALREADY_EXISTS || code === FAILED_PRECONDITION;
}

/**
 * When this instance last wrote each counter document (by path): older prefetched reads are stale.
 * Bounded, oldest written first out: a forgotten document only costs a stale read its
 * compare-and-swap refuses, and one retry.
 */
const lastWrite = new Map<string, Timestamp>();
const MAX_WRITES_KEPT = 50_000;

const FIELDS = ["minuteWindow", "minuteCount", "dayWindow", "dayCount"] as const;

/** The counter a snapshot holds; a missing or malformed document counts as unused. */
export function storedUsage(snap: DocumentSnapshot): UsageState | undefined {
  const values = FIELDS.map((f): unknown => snap.get(f));
  if (!values.every((v): v is number => typeof v === "number")) return undefined;
  const [minuteWindow, minuteCount, dayWindow, dayCount] = values;
  return { minuteWindow, minuteCount, dayWindow, dayCount };
}

/**
 * Further writes of admitted request `index`, committed in the counter's batch (an audit entry).
 */
export type AlsoWrite = (batch: WriteBatch, index: number) => void;

/**
 * Decides `count` requests of the key and stores the outcome with a compare-and-swap, retried
 * on conflict (see the module comment). Callers in one instance are coalesced by the service.
 * `also` adds each admitted request's own writes to the same batch: they commit exactly when
 * the request is counted.
 */
export function consumeMany<D extends UsageDecision>(
  keyHash: string,
  count: number,
  decide: DecideBatch<D>,
  prefetched?: DocumentSnapshot,
  also?: AlsoWrite,
): Promise<D[]> {
  return consumeDoc(usageRef(keyHash), keyHash, count, decide, prefetched, also);
}

/** consumeMany on one counter document `ref` of the key (the key's own, or one of its shards). */
export async function consumeDoc<D extends UsageDecision>(
  ref: DocumentReference,
  keyHash: string,
  count: number,
  decide: DecideBatch<D>,
  prefetched?: DocumentSnapshot,
  also?: AlsoWrite,
): Promise<D[]> {
  const written = lastWrite.get(ref.path);
  const fresh = prefetched?.ref.path === ref.path && (!written || prefetched.readTime >= written);
  let first = fresh ? prefetched : undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // A stale snapshot is harmless (its swap fails and the loop reads again), only slower.
    const snap = first ?? (await ref.get());
    first = undefined;
    const now = Timestamp.now();
    const decisions = decide(storedUsage(snap), now.toMillis(), count);
    const admitted = decisions.filter((d) => d.allowed);
    // A refusal needs no write: counts only grow within a window, so a stale read can only
    // under-count, never refuse wrongly.
    if (!admitted.length) return decisions;
    const data = { ...admitted[admitted.length - 1].next, updatedAt: now };
    const batch = firestore().batch();
    if (snap.exists) batch.update(ref, data, { lastUpdateTime: snap.updateTime! });
    else batch.create(ref, data);
    if (admitted.some((d) => d.firstInMinute))
      batch.update(apiKeysCollection().doc(keyHash), { lastUsedAt: now });
    if (also) decisions.forEach((d, i) => d.allowed && also(batch, i));
    try {
      const [result] = await batch.commit();
      setBounded(lastWrite, ref.path, result.writeTime, MAX_WRITES_KEPT);
      return decisions;
    } catch (err) {
      if (!isConflict(err)) throw err;
      await sleep(Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 4)));
    }
  }
  throw new UsageContentionError();
}
