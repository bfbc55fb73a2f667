import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { z } from "../http/zod";
import { decide, type Limits, type RateLimitDecision } from "../services/rateLimit";
import { apiKeysCollection } from "./apiKeys";

/**
 * `apiKeyUsage/{keyHash}`: API-owned window counters, one document per key. Kept apart
 * from `apiKeys` so the per-request write never contends with key management.
 */
const usageDoc = z.object({
  minuteWindow: z.number(),
  minuteCount: z.number(),
  dayWindow: z.number(),
  dayCount: z.number(),
});

const usageRef = (keyHash: string) => firestore().collection("apiKeyUsage").doc(keyHash);

/**
 * Admits or refuses one request inside a transaction, so concurrent requests on the same key
 * are serialised by Firestore and exactly `limit` of them pass. The first admitted request of
 * each minute also refreshes the key's `lastUsedAt` (at most one extra write a minute).
 */
export async function consume(keyHash: string, limits: Limits): Promise<RateLimitDecision> {
  const ref = usageRef(keyHash);
  return firestore().runTransaction(
    async (tx) => {
      const snap = await tx.get(ref);
      const parsed = usageDoc.safeParse(snap.data());
      const now = Timestamp.now();
      const decision = decide(parsed.success ? parsed.data : undefined, now.toMillis(), limits);
      if (decision.allowed) {
        tx.set(ref, { ...decision.next, updatedAt: now });
        if (decision.firstInMinute) tx.update(apiKeysCollection().doc(keyHash), { lastUsedAt: now });
      }
      return decision;
    },
    { maxAttempts: 30 },
  );
}
