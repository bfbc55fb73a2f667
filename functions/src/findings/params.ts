import { invalidRequest } from "../http/errors";
import { z } from "../http/zod";
import { compareInstants, parseInstant, type Instant } from "../lib/dates";
import { decodeToken, encodeToken, scopeDigest } from "../lib/pageToken";
import { pageTokenSecret } from "../config/params";
import type { Cursor } from "../repos/findings";

/** Query parameters shared by the list endpoints, and the page-token handling behind them. */
export const limitParam = z
  .string()
  .regex(/^\d{1,4}$/, "must be an integer from 1 to 500")
  .transform(Number)
  .pipe(z.number().int().min(1, "must be an integer from 1 to 500").max(500, "must be an integer from 1 to 500"))
  .optional()
  .transform((v) => v ?? 100)
  .openapi({ type: "integer", minimum: 1, maximum: 500, default: 100, description: "Page size, 1 to 500 (default 100)." });

export const pageTokenParam = z
  .string()
  .min(1)
  .max(2048)
  .optional()
  .openapi({ description: "Opaque cursor copied from the previous response's `next_page_token`; do not parse or build it." });

export const instantParam = (description: string) =>
  z
    .string()
    .max(40)
    .transform((text, ctx): Instant => {
      const instant = parseInstant(text);
      if (!instant) {
        ctx.addIssue({ code: "custom", message: "must be a date (2026-03-01) or a UTC date-time (2026-03-01T08:30:00Z)" });
        return z.NEVER;
      }
      return instant;
    })
    .optional()
    .openapi({ type: "string", format: "date-time", description, example: "2026-03-01T00:00:00Z" });

/** Refinement of a query with `from`/`to`: an empty or inverted window is a 400 on `to`. */
export function refineWindow(q: { from?: Instant; to?: Instant }, ctx: z.RefinementCtx): void {
  if (q.from && q.to && compareInstants(q.from, q.to) >= 0) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
}

/** An instant as it enters a page token's scope. */
export const instantKey = (i: Instant | undefined) => (i ? `${i.seconds}.${i.nanos}` : null);

const cursorShape = z.tuple([z.number().int().nullable(), z.number().int().min(0).max(999_999_999).nullable(), z.string().min(1).max(1500)]);

/** The cursor inside `page_token`, checked against the scope it must belong to. */
export function readPageToken(token: string | undefined, scope: Record<string, unknown>): Cursor | undefined {
  if (token === undefined) return undefined;
  const decoded = decodeToken<unknown>(pageTokenSecret(), scopeDigest(scope), token);
  if (!decoded.ok) {
    throw invalidRequest(
      decoded.reason === "other_query"
        ? 'Invalid query parameter "page_token": it belongs to another query (other filters, mode or key); restart without page_token.'
        : 'Invalid query parameter "page_token": not a token this API issued; copy next_page_token exactly.',
    );
  }
  const cursor = cursorShape.safeParse(decoded.cursor);
  if (!cursor.success) throw invalidRequest('Invalid query parameter "page_token": not a token this API issued.');
  return cursor.data;
}

/**
 * Reads `limit + 1` rows to learn whether a next page exists; the token resumes after the
 * last row of this page even when that row is then filtered out (hidden), so paging never
 * loops and never skips.
 */
export function pageResult<R>(rows: Array<{ cursor: Cursor } & R>, limit: number, scope: Record<string, unknown>) {
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  const token = more ? encodeToken(pageTokenSecret(), scopeDigest(scope), page[page.length - 1].cursor) : null;
  return { page, next_page_token: token };
}
