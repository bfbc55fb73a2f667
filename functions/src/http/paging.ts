import { DELTA_RETENTION_DAYS } from "../config/constants";
import { pageTokenSecrets } from "../config/params";
import { toIso } from "../lib/dates";
import { decodeToken, encodeToken, type TokenRefusal } from "../lib/pageToken";
import { decodeCursor, encodeCursor } from "../repos/cursorCodec";
import type { Cursor } from "../repos/rangeQuery";
import {
  DeltaExpiredError,
  Removal,
  resumeOf,
  retainedWatermark,
  syncPage,
  type DeltaSource,
} from "../services/delta";
import { ApiError, invalidRequest } from "./errors";
import { notOurs, type TokenParam } from "./listParams";
import { z } from "./zod";

/** Why a token is refused: one message per cause, for page and delta tokens alike. */
const REFUSALS: Record<TokenRefusal, (param: TokenParam) => string> = {
  malformed: notOurs,
  tampered: notOurs,
  retired_key: (param) =>
    `it was signed with a key that has since been retired; restart without ${param}.`,
  other_query: (param) =>
    `it belongs to another query (other filters, mode or key); restart without ${param}.`,
};

/**
 * The one token reader: the payload of `token`, authenticated, bound to `scope` (see the
 * kernel's `tokenScope` and `deltaScope`) and read by `parse`, whose null means a payload of
 * another shape, which no token of ours for this scope holds.
 */
export function readToken<C>(
  param: TokenParam,
  token: string,
  scope: string,
  parse: (payload: unknown) => C | null,
): C {
  const decoded = decodeToken<unknown>(pageTokenSecrets(), scope, token);
  const payload = decoded.ok ? parse(decoded.cursor) : null;
  if (payload !== null) return payload;
  const reason = decoded.ok ? "malformed" : decoded.reason;
  // A delta client already starts over on 410 (a token past the changes' retention); a retired
  // secret means the same to it, while a page token's listing restarts on its 400.
  if (param === "delta_token" && reason === "retired_key")
    throw new ApiError(
      "resync_required",
      "This delta_token was signed with a key that has since been retired; start a full copy " +
        "again without delta_token.",
    );
  throw invalidRequest(`Invalid query parameter "${param}": ${REFUSALS[reason](param)}`);
}

/** A token carrying `payload`, bound to `scope`. */
export const issueToken = (scope: string, payload: unknown): string =>
  encodeToken(pageTokenSecrets(), scope, payload);

/** The one place rows leave a page: read as null (hidden, not shown), they still moved a cursor. */
export const shown = <T>(rows: ReadonlyArray<T | null>): T[] =>
  rows.filter((row): row is T => row !== null);

/**
 * A page row already in its JSON text. A listing's rows become text as each arrives from
 * Firestore (`pageRow`), so a page being read holds strings rather than object graphs that
 * every young-generation collection copies again: 5–11 ms less a page of 500 findings, measured
 * in step against the code before (docs/benchmarks.md). sendJson writes the text as it is;
 * toJSON gives the same JSON elsewhere.
 */
export class RowText<T> {
  /** The row's type, for the compiler only: it holds no value. */
  declare readonly row?: T;
  constructor(readonly text: string) {}
  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

/** A page's body as its handler returns it: the rows may be RowText. */
export type PageBody<P extends { data: unknown[] }> = Omit<P, "data"> & {
  data: Array<P["data"][number] | RowText<P["data"][number]>>;
};

/**
 * The longest row text kept (RowText): JSON writes a control character as six characters, so a
 * long row of them held as text until the page is sent could take six times its stored size; a
 * longer row stays an object, which sendJson writes on its own.
 */
export const MAX_ROW_TEXT = 16 * 1024;

/**
 * A listing's row as it arrives, under the one hidden rule of a page: a row hidden in the app
 * reads as null (see `shown`); a shown row is its wire form, as text at once (RowText) unless
 * that is longer than MAX_ROW_TEXT.
 */
export const pageRow =
  <D extends { hidden: boolean }, R>(show: (doc: D) => R) =>
  (doc: D): R | RowText<R> | null => {
    if (doc.hidden) return null;
    const row = show(doc);
    const text = JSON.stringify(row);
    return text.length <= MAX_ROW_TEXT ? new RowText<R>(text) : row;
  };

/**
 * One page of a list endpoint: the token checked against the request's scope (the kernel's
 * `tokenScope`: operation, tenant, path and every filter), `limit + 1` rows fetched after its
 * cursor to learn whether a next page exists, and the rows shown. The next token resumes after
 * the last row of this page even when that row is hidden, so paging never loops and never skips.
 */
export async function paged<R>(
  q: { page_token?: string; limit: number },
  scope: string,
  fetch: (
    after: Cursor | undefined,
    limit: number,
  ) => Promise<Array<{ row: R | null; cursor: Cursor }>>,
): Promise<{ data: R[]; next_page_token: string | null }> {
  const after =
    q.page_token === undefined
      ? undefined
      : readToken("page_token", q.page_token, scope, decodeCursor);
  const rows = await fetch(after, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = rows.length > q.limit ? page[page.length - 1].cursor : undefined;
  return {
    data: shown(page.map((r) => r.row)),
    next_page_token: last ? issueToken(scope, encodeCursor(last)) : null,
  };
}

/** The list envelope of every paginated endpoint. */
export const pageOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      next_page_token: z
        .string()
        .nullable()
        .openapi({
          description:
            "Opaque; pass as `page_token` for the next page. Null at the end. A page may " +
            "be short, even empty, and still have a next page.",
        }),
    })
    .openapi(name);

const removalSchema = z
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
type RemovalWire = z.infer<typeof removalSchema>;

export const deltaPageOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(z.union([item, removalSchema])),
      next_page_token: z
        .string()
        .nullable()
        .openapi({
          description:
            "Opaque; pass as `page_token` (with the same `delta_token`, if any) for the " +
            "next page. Null on the last page.",
        }),
      delta_token: z
        .string()
        .nullable()
        .openapi({
          description:
            "On the last page only (null before): keep it and pass it as `delta_token` for " +
            "the next delta.",
        }),
    })
    .openapi(name);

/** The rows of a delta page on the wire: a removal as `{ id, removed: { reason, at } }`. */
const wire = <R>(row: R | Removal): R | RemovalWire =>
  row instanceof Removal ? { id: row.id, removed: { reason: row.reason, at: toIso(row.at) } } : row;

/**
 * One page of a delta endpoint: its tokens read (the `delta_token` bound by the kernel's
 * `deltaScope` to the operation and tenant, the `page_token` to the whole query), the page
 * the delta service gives, and the next tokens.
 */
export async function deltaPage<R>(
  q: { limit: number; page_token?: string; delta_token?: string },
  scopes: { tokenScope: string; deltaScope: string },
  source: DeltaSource<R>,
): Promise<{
  data: Array<R | RemovalWire>;
  next_page_token: string | null;
  delta_token: string | null;
}> {
  const { tokenScope, deltaScope } = scopes;
  try {
    const since =
      q.delta_token === undefined
        ? undefined
        : readToken("delta_token", q.delta_token, deltaScope, retainedWatermark);
    const resumed =
      q.page_token === undefined
        ? undefined
        : readToken("page_token", q.page_token, tokenScope, resumeOf);
    const page = await syncPage(source, since, resumed, q.limit);
    return {
      data: shown(page.rows).map(wire),
      next_page_token: page.next && issueToken(tokenScope, page.next),
      delta_token: page.next ? null : issueToken(deltaScope, page.watermark),
    };
  } catch (err) {
    if (!(err instanceof DeltaExpiredError)) throw err;
    throw new ApiError(
      "resync_required",
      `This delta_token is older than ${DELTA_RETENTION_DAYS} days, the changes' ` +
        `retention; start a full copy again without delta_token.`,
    );
  }
}
