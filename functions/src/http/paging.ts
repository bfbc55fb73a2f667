import { pageTokenSecrets } from "../config/params";
import { compareInstants, INSTANT_PATTERN, parseInstant, type Instant } from "../lib/dates";
import { cursorPosition, positionCursor, type Position } from "../lib/docPosition";
import { decodeToken, encodeToken, type TokenRefusal } from "../lib/pageToken";
import { decodeCursor, encodeCursor } from "../repos/cursorCodec";
import type { Cursor } from "../repos/rangeQuery";
import { ApiError, invalidRequest } from "./errors";
import { z } from "./zod";

/** Query parameters shared by the list endpoints of both APIs, and the page tokens behind them. */
export const limitParam = z
  .string()
  .regex(/^\d{1,4}$/, "must be an integer from 1 to 500")
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(1, "must be an integer from 1 to 500")
      .max(500, "must be an integer from 1 to 500"),
  )
  .optional()
  .transform((v) => v ?? 100)
  .openapi({
    type: "integer",
    minimum: 1,
    maximum: 500,
    default: 100,
    description: "Page size, 1 to 500 (default 100).",
  });

/**
 * Long enough for any token the API issues (a document id of up to 1,500 bytes and an order
 * value of up to 64 characters, encrypted: under 2,900 characters), and short enough that a
 * request carrying it stays far below the runtime's 16 KiB header limit, so a longer one gets
 * our 400 rather than the runtime's bodiless 431.
 */
export const MAX_TOKEN_LENGTH = 4096;

export const pageTokenParam = z
  .string()
  .min(1)
  .max(MAX_TOKEN_LENGTH)
  .optional()
  .openapi({
    description:
      "Opaque cursor copied from the previous response's `next_page_token`; do not parse " +
      "or build it. One the API did not issue, or issued for " +
      "other filters, another mode or another key's project or company, is refused (400).",
  });

/** The rule every `from`/`to` window states on its operation. */
export const WINDOW_RULE = "`to`, when given with `from`, must be after `from`.";

export const instantParam = (description: string) =>
  z
    .string()
    .max(40)
    .transform((text, ctx): Instant => {
      const instant = parseInstant(text);
      if (!instant) {
        ctx.addIssue({
          code: "custom",
          message: "must be a date (2026-03-01) or a UTC date-time (2026-03-01T08:30:00Z)",
        });
        return z.NEVER;
      }
      return instant;
    })
    .optional()
    // No `format: date-time`: a calendar date is accepted too, and offsets other than Z are not.
    .openapi({
      type: "string",
      pattern: INSTANT_PATTERN,
      maxLength: 40,
      description:
        `${description} A real calendar date (\`2026-03-01\`, midnight UTC) ` +
        `or a UTC date-time with \`Z\` (\`2026-03-01T08:30:00Z\`, fractions allowed).`,
      example: "2026-03-01T00:00:00Z",
    });

/** Refinement of a query with `from`/`to`: an empty or inverted window is a 400 on `to`. */
function refineWindow(q: { from?: Instant; to?: Instant }, ctx: z.RefinementCtx): void {
  if (q.from && q.to && compareInstants(q.from, q.to) >= 0)
    ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
}

/**
 * The query of a list endpoint: `limit`, `page_token`, a `from`/`to` window (described per
 * endpoint; an empty or inverted window is a 400) and the endpoint's own filters. Strict:
 * an unknown parameter is a 400 naming it.
 */
export function windowedListQuery<S extends z.ZodRawShape>(
  window: { from: string; to: string },
  filters: S,
) {
  return (
    z
      .object({
        limit: limitParam,
        page_token: pageTokenParam,
        from: instantParam(window.from),
        to: instantParam(window.to),
        ...filters,
      })
      .strict()
      // The window's fields are declared just above.
      .superRefine((q, ctx) => refineWindow(q as { from?: Instant; to?: Instant }, ctx))
  );
}

type TokenParam = "page_token" | "delta_token";
const COPY_FROM: Record<TokenParam, string> = {
  page_token: "next_page_token",
  delta_token: "delta_token",
};
const notOurs = (param: TokenParam) =>
  `not a token this API issued; copy ${COPY_FROM[param]} exactly.`;
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

/** The one place hidden rows leave a page: they were read as null, and still moved the cursor. */
export const shown = <T>(rows: ReadonlyArray<T | null>): T[] =>
  rows.filter((row): row is T => row !== null);

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

/** A position of a vessel-wide listing, back from its token (null: no position of ours). */
function positionOfToken(payload: unknown): Position | null {
  const cursor = decodeCursor(payload);
  return cursor && cursorPosition(cursor);
}

/**
 * One page of a vessel-wide listing, which decides for itself where the next page resumes (a
 * scan that may end a page early, or step over what it need not read): `resume` null ends it.
 */
export async function pagedScan<R>(
  q: { page_token?: string; limit: number },
  scope: string,
  fetch: (
    after: Position | undefined,
    limit: number,
  ) => Promise<{ rows: Array<R | null>; resume: Position | null }>,
): Promise<{ data: R[]; next_page_token: string | null }> {
  const after =
    q.page_token === undefined
      ? undefined
      : readToken("page_token", q.page_token, scope, positionOfToken);
  const { rows, resume } = await fetch(after, q.limit);
  return {
    data: shown(rows),
    next_page_token: resume && issueToken(scope, encodeCursor(positionCursor(resume))),
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
