import { Timestamp } from "firebase-admin/firestore";
import { DELTA_RETENTION_DAYS } from "../config/constants";
import { pageTokenSecrets } from "../config/params";
import { DAY_MS } from "../lib/dates";
import { decodeToken, encodeToken, scopeDigest } from "../lib/pageToken";
import {
  changesSince,
  readTimeNow,
  type ChangeKind,
  type ChangeRecord,
} from "../repos/changeRecords";
import { decodeCursor, encodeCursor } from "../repos/cursorCodec";
import type { Cursor } from "../repos/rangeQuery";
import { ApiError, invalidRequest } from "./errors";
import { limitParam, MAX_TOKEN_LENGTH, pageTokenParam } from "./paging";
import { z } from "./zod";

/**
 * The delta endpoints' kernel (docs/api-behaviour.md, "Delta sync"). Without `delta_token`: the
 * full listing; with it: the change records since the token's watermark. The watermark of the
 * next token is a Firestore read time taken before the first page is read (the full copy's, or
 * the first change page's): every change committed later gets a later change record, so the
 * next delta sees it; a change the pages saw already may come again (repeats, never gaps).
 */
export const deltaQuery = z
  .object({
    limit: limitParam,
    page_token: pageTokenParam,
    delta_token: z
      .string()
      .min(1)
      .max(MAX_TOKEN_LENGTH)
      .optional()
      .openapi({
        description:
          "Opaque; the `delta_token` of the last page of the previous full copy or delta. Without it: a full copy of every " +
          "visible row. With it: every row changed since, or removed since (`removed`). Repeat it beside `page_token` on " +
          "later pages. Reusable; older than 30 days: 410 `resync_required`.",
      }),
  })
  .strict();

export const removalSchema = z
  .object({
    id: z.string(),
    removed: z.object({
      reason: z.enum(["hidden", "deleted"]),
      at: z.string().openapi({
        format: "date-time",
        description: "Server time the removal was recorded.",
      }),
    }),
  })
  .openapi("Removal", {
    description: "A row removed since the delta_token (hidden in the app, or deleted): drop it.",
  });
export type Removal = z.infer<typeof removalSchema>;

export const deltaPageOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(z.union([item, removalSchema])),
      next_page_token: z.string().nullable().openapi({
        description:
          "Opaque; pass as `page_token` (with the same `delta_token`, if any) for the next page. Null on the last page.",
      }),
      delta_token: z.string().nullable().openapi({
        description:
          "On the last page only (null before): keep it and pass it as `delta_token` for the next delta.",
      }),
    })
    .openapi(name);

/** Where a delta page comes from: the full listing, and the current rows of changed ids. */
export interface DeltaSource<R> {
  kind: ChangeKind;
  parentId: string;
  /** The normal listing's rows after `after` (null: hidden, still moves the cursor). */
  list(after: Cursor | undefined, limit: number): Promise<Array<{ row: R | null; cursor: Cursor }>>;
  /** The rows of these ids as they are now: the full row, or why it is not visible. */
  current(ids: string[]): Promise<Map<string, R | "hidden">>;
}

type PageCursor = { w: [number, number]; c?: unknown; a?: [number, number, string] };
const pair = (t: Timestamp): [number, number] => [t.seconds, t.nanoseconds];
const isPair = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && v.every((n) => Number.isSafeInteger(n));
const NOT_OURS = (name: string) =>
  invalidRequest(
    `Invalid query parameter "${name}": not a token this API issued for this key and endpoint; copy it exactly.`,
  );

function readDeltaToken(token: string, scope: string): Timestamp {
  const decoded = decodeToken<unknown>(pageTokenSecrets(), scope, token);
  if (!decoded.ok || !isPair(decoded.cursor)) throw NOT_OURS("delta_token");
  const since = new Timestamp(decoded.cursor[0], decoded.cursor[1]);
  if (Date.now() - since.toMillis() > DELTA_RETENTION_DAYS * DAY_MS)
    throw new ApiError(
      "resync_required",
      `This delta_token is older than ${DELTA_RETENTION_DAYS} days, the changes' retention; start a full copy again without delta_token.`,
    );
  return since;
}

function readPageCursor(token: string, scope: string): PageCursor {
  const decoded = decodeToken<PageCursor>(pageTokenSecrets(), scope, token);
  if (!decoded.ok || !isPair(decoded.cursor?.w)) throw NOT_OURS("page_token");
  return decoded.cursor;
}

const iso = (t: Timestamp) => t.toDate().toISOString();
/** `valueOf()` of a Timestamp is a string that sorts in time order (to the nanosecond). */
const atLeast = (a: Timestamp | null, b: Timestamp) => !!a && a.valueOf() >= b.valueOf();

/** One page of a delta endpoint. `operation` names the endpoint the delta_token is bound to. */
export async function deltaPage<R>(
  q: { limit: number; page_token?: string; delta_token?: string },
  tokenScope: string,
  operation: string,
  source: DeltaSource<R>,
): Promise<{
  data: Array<R | Removal>;
  next_page_token: string | null;
  delta_token: string | null;
}> {
  const deltaScope = scopeDigest({ operation, tenant: source.parentId, delta: true });
  const since = q.delta_token === undefined ? undefined : readDeltaToken(q.delta_token, deltaScope);
  const resumed = q.page_token === undefined ? undefined : readPageCursor(q.page_token, tokenScope);
  const secrets = pageTokenSecrets();
  const finish = (watermark: [number, number], more: PageCursor | undefined) => ({
    next_page_token: more ? encodeToken(secrets, tokenScope, more) : null,
    delta_token: more ? null : encodeToken(secrets, deltaScope, watermark),
  });

  if (!since) {
    const w = resumed?.w ?? pair(await readTimeNow(source.kind, source.parentId));
    const after = resumed && resumed.c !== undefined ? decodeCursor(resumed.c) : undefined;
    if (after === null) throw NOT_OURS("page_token");
    const rows = await source.list(after, q.limit + 1);
    const page = rows.slice(0, q.limit);
    const more =
      rows.length > q.limit ? { w, c: encodeCursor(page[page.length - 1].cursor) } : undefined;
    return { data: page.flatMap((r) => (r.row === null ? [] : [r.row])), ...finish(w, more) };
  }

  const after = resumed?.a && {
    changedAt: new Timestamp(resumed.a[0], resumed.a[1]),
    id: resumed.a[2],
  };
  const { records, readTime } = await changesSince(
    source.kind,
    source.parentId,
    since,
    after,
    q.limit + 1,
  );
  const w = resumed?.w ?? pair(readTime);
  const page = records.slice(0, q.limit);
  const current = await source.current(page.map((r) => r.id));
  const last = page[page.length - 1];
  const more =
    records.length > q.limit
      ? { w, a: [...pair(last.changedAt), last.id] as [number, number, string] }
      : undefined;
  return { data: page.flatMap((r) => deltaRow(r, current.get(r.id), since)), ...finish(w, more) };
}

/**
 * A changed row as it is now: the full row if visible; a removal if it was visible at some
 * time since the token (the record says so); nothing for a row never visible since.
 */
function deltaRow<R>(
  record: ChangeRecord,
  now: R | "hidden" | undefined,
  since: Timestamp,
): Array<R | Removal> {
  if (now !== undefined && now !== "hidden") return [now];
  const wasVisible = record.state === "visible" || atLeast(record.lastVisibleAt, since);
  if (!wasVisible) return [];
  const reason = now === "hidden" ? ("hidden" as const) : ("deleted" as const);
  return [{ id: record.id, removed: { reason, at: iso(record.changedAt) } }];
}
