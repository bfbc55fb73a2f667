import type { DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import {
  consumeDoc,
  shardRef,
  UsageContentionError,
  type AlsoWrite,
  type UsageDecision,
  type UsageState,
} from "./apiKeyUsage";

/**
 * The sharded counter of a key allowed more than one shard's worth a minute
 * (docs/firestore-data.md, `apiKeyUsage` shards). Each shard is an ordinary counter document
 * with its own compare-and-swap (repos/apiKeyUsage), deciding against its own slice of the
 * limits, so no shard ever admits beyond its slice and, the slices summing to the limit, the key
 * never beyond its limit. A batch of requests tries one shard chosen at random (the shard the
 * caller prefetched, when it is one of them); the requests that shard cannot take go on to the
 * others (read together in one `getAll`), so a request is refused only when every shard refused it.
 */

/** Decides `count` requests against shard `shard`'s slice (services/rateLimit's arithmetic). */
export type DecideShard<D extends UsageDecision> = (
  stored: UsageState | undefined,
  nowMs: number,
  count: number,
  shard: number,
) => D[];

export interface ShardedOutcome<D> {
  /**
   * Per request: the decision of the shard that admitted it, or null when every shard refused it.
   */
  decisions: Array<D | null>;
  /**
   * One refusal per shard tried that refused (every shard's, when any request is refused and none
   * was contended).
   */
  refusals: D[];
  /**
   * A shard stayed contended after its retries: the requests left undecided are neither admitted
   * nor refused by it.
   */
  contended: boolean;
}

export async function consumeSharded<D extends UsageDecision>(
  keyHash: string,
  shards: number,
  count: number,
  decide: DecideShard<D>,
  prefetched?: DocumentSnapshot,
  also?: AlsoWrite,
): Promise<ShardedOutcome<D>> {
  const decisions: Array<D | null> = new Array<D | null>(count).fill(null);
  const refusals: D[] = [];
  let contended = false;
  const all = Array.from({ length: shards }, (_, i) => i);
  const given = all.find((i) => shardRef(keyHash, i).path === prefetched?.ref.path);
  const start = given ?? Math.floor(Math.random() * shards);
  const order = all.map((k) => (start + k) % shards);
  const snaps = new Map<number, DocumentSnapshot>();
  if (prefetched && given !== undefined) snaps.set(given, prefetched);
  let pending = Array.from({ length: count }, (_, i) => i);
  for (const [k, shard] of order.entries()) {
    if (k === 1) {
      // The first shard could not take every request: read all the others in one round trip.
      const rest = order.slice(1);
      const read = await firestore().getAll(...rest.map((i) => shardRef(keyHash, i)));
      rest.forEach((i, j) => snaps.set(i, read[j]));
    }
    const ids = pending;
    // A contended shard is passed over (the others may have room); the requests it leaves are
    // not failed wholesale, since requests other shards admitted are already counted.
    const got = await consumeDoc(
      shardRef(keyHash, shard),
      keyHash,
      ids.length,
      (stored, nowMs, n) => decide(stored, nowMs, n, shard),
      snaps.get(shard),
      also && ((batch, j) => also(batch, ids[j])),
    ).catch((err: unknown) => {
      if (!(err instanceof UsageContentionError)) throw err;
      contended = true;
      return null;
    });
    if (!got) continue;
    pending = [];
    got.forEach((d, j) => (d.allowed ? (decisions[ids[j]] = d) : pending.push(ids[j])));
    const refused = got.find((d) => !d.allowed);
    if (refused) refusals.push(refused);
    if (!pending.length) break;
  }
  return { decisions, refusals, contended };
}
