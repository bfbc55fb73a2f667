import { deltaQuery } from "../http/listParams";
import { deltaPage, deltaPageOf, pageRow, type PageBody } from "../http/paging";
import { defineProjectRoute } from "../http/route";
import { z } from "../http/zod";
import { findingsByIds, queryFindings } from "../repos/findings";
import { FINDING_DELTA_EXAMPLE } from "./examples";
import { toFinding } from "./map";
import { findingSchema } from "./schemas";

const responseSchema = deltaPageOf(findingSchema, "FindingDeltaPage");

export const findingsDelta = defineProjectRoute({
  method: "get",
  path: "/v1/findings/delta",
  operationId: "findingsDelta",
  summary: "Keep a copy in sync: a full copy, then the changes and removals since",
  description:
    "Without `delta_token`: every visible finding, paginated and ordered as `GET " +
    "/v1/findings`; the last page carries a " +
    "`delta_token`. With `delta_token`: every finding changed since, in server change " +
    "order (a change to its comments, " +
    "files or checklist counts; the time is the server's, never the app's " +
    "`last_edited_date`), each the full row as " +
    "`GET /v1/findings` returns it, or `{ id, removed: { reason, at } }` for a finding " +
    "hidden or deleted since (only if it " +
    "was visible at some time since the token). A finding shown again comes back as a " +
    "full row. Rows may repeat across " +
    "deltas (apply them as upserts), never go missing: a change committed while the " +
    "pages are read comes in the next " +
    "delta. A page may be short, even empty, and still have a `next_page_token`. Tokens " +
    "are bound to the key's project " +
    "and this endpoint; a `delta_token` may be used again; one older than 30 days is " +
    "refused with 410 `resync_required`.",
  tags: ["Findings"],
  query: deltaQuery,
  rules: [
    "A `page_token` must come with the `delta_token` (or none) of the request that issued it.",
  ],
  success: {
    description: "One page of findings and removals.",
    schema: responseSchema,
    example: FINDING_DELTA_EXAMPLE,
  },
  errors: ["invalid_request", "resync_required"],
  handler: async ({ query: q, principal, tokenScope, deltaScope }) => {
    const { projectId } = principal;
    const shown = pageRow(toFinding);
    return (await deltaPage(
      q,
      { tokenScope, deltaScope },
      {
        kind: "finding",
        parentId: projectId,
        list: (after, limit) => queryFindings(projectId, "dateCreated", { after, limit }, shown),
        current: async (ids) =>
          new Map([...(await findingsByIds(projectId, ids))].map(([id, doc]) => [id, shown(doc)])),
      },
    )) satisfies PageBody<z.infer<typeof responseSchema>>;
  },
});
