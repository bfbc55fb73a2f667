import type { DocumentSnapshot, WriteBatch } from "firebase-admin/firestore";
import { Coalescer } from "../lib/coalesce";
import { consumeMany, UsageContentionError, type UsageDecision } from "./apiKeyUsage";
import { stageAuditEntry, type AuditEntry } from "./auditLogs";
import { consumeSharded, type DecideShard } from "./usageShards";

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
