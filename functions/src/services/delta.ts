import { Timestamp } from "firebase-admin/firestore";
import { DELTA_RETENTION_DAYS } from "../config/constants";
import { DAY_MS } from "../lib/dates";
import {
  changesSince,
  readTimeNow,
  type ChangeKind,
  type ChangeRecord,
} from "../repos/changeRecords";
import { decodeCursor, encodeCursor } from "../repos/cursorCodec";
import type { Cursor } from "../repos/rangeQuery";

/**
 * Delta sync (docs/development.md, "Delta sync"). Without a watermark: the full listing; with
 * one: the change records since it. The next watermark is a Firestore read time taken before
 * the first page is read (the full copy's, or the first change page's): every change committed
 * later gets a later change record, so the next delta sees it; a change the pages saw already
 * may come again (repeats, never gaps). Watermarks and resume positions are plain JSON, which
 * the HTTP kernel carries in its tokens.
 */

/** Where a delta page comes from: the full listing, and the current rows of changed ids. */
export interface DeltaSource<R> {
  kind: ChangeKind;
  parentId: string;
  /** The normal listing's rows after `after` (null: hidden, still moves the cursor). */
  list(after: Cursor | undefined, limit: number): Promise<Array<{ row: R | null; cursor: Cursor }>>;
  /** The rows of these ids as they are now: the full row, null when hidden, absent if deleted. */
  current(ids: string[]): Promise<Map<string, R | null>>;
}

/** A Firestore read time as `[seconds, nanoseconds]`. */
export type Watermark = [number, number];

/**
 * Where the next page resumes, with the watermark the last page will give: after the listing's
 * cursor `c` (a full copy), or after the change record `a` (a delta).
 */
export interface Resume {
  w: Watermark;
  c?: unknown;
  a?: [number, number, string];
}

/** A row removed since the watermark: hidden in the app, or deleted. */
export class Removal {
  constructor(
    readonly id: string,
    readonly reason: "hidden" | "deleted",
    readonly at: Timestamp,
  ) {}
}

/** The watermark is older than the change records' retention: only a full copy can follow. */
export class DeltaExpiredError extends Error {
  constructor() {
    super(`the watermark is older than ${DELTA_RETENTION_DAYS} days`);
    this.name = "DeltaExpiredError";
  }
}

const isPair = (v: unknown): v is Watermark =>
  Array.isArray(v) && v.length === 2 && v.every((n) => Number.isSafeInteger(n));
const pair = (t: Timestamp): Watermark => [t.seconds, t.nanoseconds];
const timestampOf = (w: Watermark) => new Timestamp(w[0], w[1]);

/** A watermark back from JSON (null: not one), refused once the changes since may be gone. */
export function retainedWatermark(json: unknown): Watermark | null {
  if (!isPair(json)) return null;
  if (Date.now() - timestampOf(json).toMillis() > DELTA_RETENTION_DAYS * DAY_MS)
    throw new DeltaExpiredError();
  return json;
}

/** A resume position back from JSON, or null when it is not one this module wrote. */
export function resumeOf(json: unknown): Resume | null {
  const r = json as Partial<Resume> | null;
  if (typeof r !== "object" || r === null || !isPair(r.w)) return null;
  if (r.c !== undefined && !decodeCursor(r.c)) return null;
  const a = r.a;
  if (a !== undefined && !(Array.isArray(a) && isPair(a.slice(0, 2)) && typeof a[2] === "string"))
    return null;
  return { w: r.w, c: r.c, a };
}

/** One page: its rows (null: nothing to show), where the next resumes, and the watermark. */
export interface DeltaPage<R> {
  rows: Array<R | Removal | null>;
  next: Resume | null;
  watermark: Watermark;
}

/** A page of the full copy (`since` undefined) or of the changes since `since`. */
export async function syncPage<R>(
  source: DeltaSource<R>,
  since: Watermark | undefined,
  resumed: Resume | undefined,
  limit: number,
): Promise<DeltaPage<R>> {
  return since ? changesPage(source, since, resumed, limit) : copyPage(source, resumed, limit);
}

async function copyPage<R>(
  source: DeltaSource<R>,
  resumed: Resume | undefined,
  limit: number,
): Promise<DeltaPage<R>> {
  const w = resumed?.w ?? pair(await readTimeNow(source.kind, source.parentId));
  const after = resumed?.c === undefined ? undefined : (decodeCursor(resumed.c) ?? undefined);
  const rows = await source.list(after, limit + 1);
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? { w, c: encodeCursor(page[page.length - 1].cursor) } : null;
  return { rows: page.map((r) => r.row), next, watermark: w };
}

async function changesPage<R>(
  source: DeltaSource<R>,
  since: Watermark,
  resumed: Resume | undefined,
  limit: number,
): Promise<DeltaPage<R>> {
  const a = resumed?.a;
  const after = a && { changedAt: new Timestamp(a[0], a[1]), id: a[2] };
  const from = timestampOf(since);
  const { records, readTime } = await changesSince(
    source.kind,
    source.parentId,
    from,
    after,
    limit + 1,
  );
  const w = resumed?.w ?? pair(readTime);
  const page = records.slice(0, limit);
  const current = await source.current(page.map((r) => r.id));
  const last = page[page.length - 1];
  const next: Resume | null =
    records.length > limit ? { w, a: [...pair(last.changedAt), last.id] } : null;
  return { rows: page.map((r) => changedRow(r, current.get(r.id), from)), next, watermark: w };
}

/** `valueOf()` of a Timestamp is a string that sorts in time order (to the nanosecond). */
const atLeast = (a: Timestamp | null, b: Timestamp) => !!a && a.valueOf() >= b.valueOf();

/**
 * A changed row as it is now: the full row if visible; a removal if it was visible at some
 * time since the watermark (the record says so); nothing for a row never visible since.
 */
function changedRow<R>(
  record: ChangeRecord,
  now: R | null | undefined,
  since: Timestamp,
): R | Removal | null {
  if (now !== undefined && now !== null) return now;
  const wasVisible = record.state === "visible" || atLeast(record.lastVisibleAt, since);
  if (!wasVisible) return null;
  return new Removal(record.id, now === null ? "hidden" : "deleted", record.changedAt);
}
