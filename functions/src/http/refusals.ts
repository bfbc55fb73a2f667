import { Timestamp } from "firebase-admin/firestore";
import { setBounded } from "../lib/bounded";
import { MINUTE_MS } from "../lib/dates";
import { addRefusals, auditEntry } from "../repos/auditLogs";
import type { AuditSubject, RequestContext } from "./context";

/**
 * Refused requests (401, 403, 429) of a known key are audited as one `api.refused` entry per
 * key, UTC minute and status, with a `count`: a loop with a leaked key must not fill the trail
 * (or the bill). Per instance the first refusal writes at once and later ones are added at most
 * every FLUSH_MS, so a `count` may lag but is never more than happened.
 */
const FLUSH_MS = 10_000;
/** Series kept per instance (key × status); the oldest is forgotten first. */
const MAX_SERIES = 10_000;

export const REFUSED_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

interface Bucket {
  companyId: string;
  entryId: string;
  minute: number;
  pending: number;
  flushedAt: number;
  /** The latest refusal counted, whose request the entry names. */
  entry: ReturnType<typeof auditEntry> | null;
}

/** The current bucket of each series (company, key, status). */
const series = new Map<string, Bucket>();

export interface Refusal {
  method: string;
  path: string;
  status: number;
}

async function flush(bucket: Bucket, now: number): Promise<void> {
  const count = bucket.pending;
  if (!count || !bucket.entry) return;
  bucket.pending = 0;
  bucket.flushedAt = now;
  try {
    await addRefusals(bucket.companyId, bucket.entryId, bucket.entry, count);
  } catch (err) {
    bucket.pending += count; // added by the next flush
    throw err;
  }
}

/** Counts one refused request; resolves once whatever had to be written now is written. */
export async function noteRefusal(
  ctx: RequestContext,
  subject: AuditSubject,
  refusal: Refusal,
  now = Date.now(),
): Promise<void> {
  const minute = Math.floor(now / MINUTE_MS);
  const seriesKey = `${subject.companyId}/${subject.actor.id}/${refusal.status}`;
  const previous = series.get(seriesKey);
  const writes: Array<Promise<void>> = [];
  let bucket = previous;
  if (!bucket || bucket.minute !== minute) {
    if (previous) writes.push(flush(previous, now));
    bucket = {
      companyId: subject.companyId,
      entryId: `refused_${subject.actor.id}_${minute}_${refusal.status}`,
      minute,
      pending: 0,
      flushedAt: Number.NEGATIVE_INFINITY,
      entry: null,
    };
    setBounded(series, seriesKey, bucket, MAX_SERIES);
  }
  bucket.pending++;
  bucket.entry = auditEntry(
    {
      class: "operational",
      action: "api.refused",
      actor: subject.actor,
      api: ctx.api,
      method: refusal.method,
      path: refusal.path,
      status: refusal.status,
      requestId: ctx.requestId,
      clientRequestId: ctx.clientRequestId,
      projectId: subject.projectId,
    },
    // The entry stands for its whole minute, so it sorts at the minute's start.
    Timestamp.fromMillis(minute * MINUTE_MS),
  );
  if (now - bucket.flushedAt >= FLUSH_MS) writes.push(flush(bucket, now));
  await Promise.all(writes);
}
