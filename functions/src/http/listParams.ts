import { compareInstants, INSTANT_PATTERN, parseInstant, type Instant } from "../lib/dates";
import { TOKEN_PATTERN } from "../lib/pageToken";
import { z } from "./zod";

/** Query parameters shared by the list and delta endpoints of both APIs. */
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

export type TokenParam = "page_token" | "delta_token";
const COPY_FROM: Record<TokenParam, string> = {
  page_token: "next_page_token",
  delta_token: "delta_token",
};
export const notOurs = (param: TokenParam) =>
  `not a token this API issued; copy ${COPY_FROM[param]} exactly.`;

/**
 * A token's characters (`kid.base64url`, lib/pageToken.ts), in the document too: a client (or a
 * generated test) never sends a value that percent-encodes to more than the URL can carry.
 */
const tokenParam = (param: TokenParam) =>
  z
    .string()
    .min(1)
    .max(MAX_TOKEN_LENGTH)
    .regex(TOKEN_PATTERN, notOurs(param).replace(/\.$/, ""))
    .optional();

export const pageTokenParam = tokenParam("page_token").openapi({
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

/** The delta endpoints' query (docs/development.md, "Delta sync"). */
export const deltaQuery = z
  .object({
    limit: limitParam,
    page_token: pageTokenParam,
    delta_token: tokenParam("delta_token").openapi({
      description:
        "Opaque; the `delta_token` of the last page of the previous full copy or " +
        "delta. Without it: a full copy of every " +
        "visible row. With it: every row changed since, or removed since (`removed`). " +
        "Repeat it beside `page_token` on " +
        "later pages. Reusable; older than 30 days, or signed with a page-token secret " +
        "since retired: 410 `resync_required`.",
    }),
  })
  .strict();
