import type { DocumentSnapshot, WriteBatch } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { Coalescer } from "../lib/coalesce";
import {
  consumeDoc,
  consumeMany,
  UsageContentionError,
  type AlsoWrite,
  type UsageDecision,
  type UsageState,
} from "./apiKeyUsage";
import { shardRef } from "./apiKeys";
import { stageAuditEntry, type AuditEntry } from "./auditLogs";

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

/** An admitted request's audit entry, committed in the batch that counts it. */
export interface CountedEntry {
  companyId: string;
  entry: AuditEntry;
  /** The entry's document id (the request's id). */
  id: string;
}

/** The limiter's rule for one batch of a key's requests, from the latest limits read. */
export interface CountRule<D extends UsageDecision> {
  /** How many counter documents the key's limits are spread over (1: the key's own). */
  shards: number;
  /** Decides requests against one shard's slice (the whole limits when unsharded). */
  decide: DecideShard<D>;
  /** The answer to a request one shard admitted, told in the key's limits. */
  admitted: (decision: D) => D;
  /** The answer to a request every shard refused (one refusal per shard). */
  refused: (refusals: D[]) => D;
}

interface Pending<D extends UsageDecision> {
  rule: CountRule<D>;
  counter?: DocumentSnapshot;
  entry?: CountedEntry;
}

/** Firestore takes 500 writes a batch: the counter, `lastUsedAt` and one entry per request. */
const MAX_BATCH = 400;

/**
 * Group commit per key inside this instance: concurrent requests of one key share one
 * compare-and-swap instead of contending with each other. Each request reads its limits fresh;
 * a batch applies the latest of them and starts from the latest counter read.
 */
export class UsageCommitter<D extends UsageDecision> {
  private readonly coalescer = new Coalescer<Pending<D>, D | UsageContentionError>(
    (keyHash, args) => this.run(keyHash, args),
    MAX_BATCH,
  );

  /**
   * Admits or refuses one request of the key (see repos/apiKeyUsage for the guarantees),
   * starting from `counter` when the caller has read it. With an `entry`, the request's audit
   * entry commits in the same batch as its count, or not at all.
   */
  async count(
    keyHash: string,
    rule: CountRule<D>,
    counter?: DocumentSnapshot,
    entry?: CountedEntry,
  ): Promise<D> {
    const decision = await this.coalescer.submit(keyHash, { rule, counter, entry });
    if (decision instanceof UsageContentionError) throw decision;
    return decision;
  }

  private async run(keyHash: string, args: Pending<D>[]): Promise<Array<D | UsageContentionError>> {
    const last = args[args.length - 1];
    const { rule } = last;
    const also = (batch: WriteBatch, i: number) => {
      const counted = args[i].entry;
      if (counted) stageAuditEntry(batch, counted.companyId, counted.entry, counted.id);
    };
    if (rule.shards === 1) {
      const decideBatch = (stored: Parameters<DecideShard<D>>[0], nowMs: number, n: number) =>
        rule.decide(stored, nowMs, n, 0);
      return consumeMany(keyHash, args.length, decideBatch, last.counter, also);
    }
    const { decisions, refusals, contended } = await consumeSharded(
      keyHash,
      rule.shards,
      args.length,
      rule.decide,
      last.counter,
      also,
    );
    return decisions.map((d) =>
      d ? rule.admitted(d) : contended ? new UsageContentionError() : rule.refused(refusals),
    );
  }
}
