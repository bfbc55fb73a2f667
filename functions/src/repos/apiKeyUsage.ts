import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { z } from "../http/zod";
import { Coalescer } from "../lib/coalesce";
import { decideMany, type Limits, type RateLimitDecision } from "../services/rateLimit";
import { apiKeysCollection } from "./apiKeys";

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
const usageDoc = z.object({
  minuteWindow: z.number(),
  minuteCount: z.number(),
  dayWindow: z.number(),
  dayCount: z.number(),
});

const MAX_ATTEMPTS = 40;
const ALREADY_EXISTS = 6;
const FAILED_PRECONDITION = 9;

export class UsageContentionError extends Error {
  constructor() {
    super("rate-limit counter still contended after retries");
    this.name = "UsageContentionError";
  }
}

const usageRef = (keyHash: string) => firestore().collection("apiKeyUsage").doc(keyHash);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === ALREADY_EXISTS || code === FAILED_PRECONDITION;
}

/** One compare-and-swap round for `count` requests; exported so tests can contend like separate instances. */
export async function consumeMany(keyHash: string, count: number, limits: Limits): Promise<RateLimitDecision[]> {
  const ref = usageRef(keyHash);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const snap = await ref.get();
    const parsed = usageDoc.safeParse(snap.data());
    const now = Timestamp.now();
    const decisions = decideMany(parsed.success ? parsed.data : undefined, now.toMillis(), limits, count);
    const admitted = decisions.filter((d) => d.allowed);
    // A refusal needs no write: counts only grow within a window, so a stale read can only
    // under-count, never refuse wrongly.
    if (!admitted.length) return decisions;
    const data = { ...admitted[admitted.length - 1].next, updatedAt: now };
    const batch = firestore().batch();
    if (snap.exists) batch.update(ref, data, { lastUpdateTime: snap.updateTime! });
    else batch.create(ref, data);
    if (admitted.some((d) => d.firstInMinute)) batch.update(apiKeysCollection().doc(keyHash), { lastUsedAt: now });
    try {
      await batch.commit();
      return decisions;
    } catch (err) {
      if (!isConflict(err)) throw err;
      await sleep(Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 4)));
    }
  }
  throw new UsageContentionError();
}

// Limits are read fresh by every request; a batch applies the latest of its requests' reads.
const coalescer = new Coalescer<Limits, RateLimitDecision>((keyHash, limits) =>
  consumeMany(keyHash, limits.length, limits[limits.length - 1]),
);

/** Admits or refuses one request of the key (see the module comment for the guarantees). */
export function consume(keyHash: string, limits: Limits): Promise<RateLimitDecision> {
  return coalescer.submit(keyHash, limits);
}
