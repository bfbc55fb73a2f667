import { deltaQuery } from "../http/listParams";
import { deltaPage, deltaPageOf, pageRow, type PageBody } from "../http/paging";
import { defineRoute } from "../http/route";
import { z } from "../http/zod";
import { incidentsByIds, queryIncidents } from "../repos/incidents";
import { INCIDENT_DELTA_EXAMPLE } from "./examples";
import { toIncident } from "./map";
import { incidentSchema } from "./schemas";

const responseSchema = deltaPageOf(incidentSchema, "IncidentDeltaPage");

export const incidentsDelta = defineRoute({
  method: "get",
  path: "/v1/incidents/delta",
  operationId: "incidentsDelta",
  summary: "Keep a copy in sync: a full copy, then the changes and removals since",
  description:
    "Without `delta_token`: every visible incident, paginated and ordered as `GET " +
    "/v1/incidents`; the last page carries a " +
    "`delta_token`. With `delta_token`: every incident changed since (any field, e.g. a " +
    "status change of an old " +
    "incident), in server change order, each the full row as `GET /v1/incidents` returns it, or " +
    "`{ id, removed: { reason, at } }` for an incident hidden or deleted since (only if " +
    "it was visible at some time since " +
    "the token). Rows may repeat across deltas (apply them as upserts), never go " +
    "missing: a change committed while the " +
    "pages are read comes in the next delta. A page may be short, even empty, and still " +
    "have a `next_page_token`. Tokens " +
    "are bound to the key's company and this endpoint; a `delta_token` may be used " +
    "again; one older than 30 days is " +
    "refused with 410 `resync_required`.",
  tags: ["Safety data"],
  scope: "read",
  query: deltaQuery,
  rules: [
    "A `page_token` must come with the `delta_token` (or none) of the request that issued it.",
  ],
  success: {
    description: "One page of incidents and removals.",
    schema: responseSchema,
    example: INCIDENT_DELTA_EXAMPLE,
  },
  errors: ["invalid_request", "resync_required"],
  handler: async ({ query: q, principal, tokenScope, deltaScope }) => {
    const { companyId } = principal;
    const shown = pageRow(toIncident);
    return (await deltaPage(
      q,
      { tokenScope, deltaScope },
      {
        kind: "incident",
        parentId: companyId,
        list: (after, limit) => queryIncidents(companyId, { after, limit }, shown),
        current: async (ids) =>
          new Map([...(await incidentsByIds(companyId, ids))].map(([id, doc]) => [id, shown(doc)])),
      },
    )) satisfies PageBody<z.infer<typeof responseSchema>>;
  },
});
