import { DELTA_RETENTION_DAYS } from "../config/constants";
import {
  DeltaExpiredError,
  Removal,
  resumeOf,
  retainedWatermark,
  syncPage,
  type DeltaSource,
} from "../services/delta";
import { ApiError } from "./errors";
import {
  issueToken,
  limitParam,
  MAX_TOKEN_LENGTH,
  pageTokenParam,
  readToken,
  shown,
} from "./paging";
import { z } from "./zod";

/** The delta endpoints' query, page and tokens (docs/development.md, "Delta sync"). */
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
          "Opaque; the `delta_token` of the last page of the previous full copy or " +
          "delta. Without it: a full copy of every " +
          "visible row. With it: every row changed since, or removed since (`removed`). " +
          "Repeat it beside `page_token` on " +
          "later pages. Reusable; older than 30 days, or signed with a page-token secret " +
          "since retired: 410 `resync_required`.",
      }),
  })
  .strict();

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
  row instanceof Removal
    ? { id: row.id, removed: { reason: row.reason, at: row.at.toISOString() } }
    : row;

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
