import { WINDOW_RULE, windowedListQuery } from "../http/listParams";
import { paged, pageOf, pageRow, type PageBody } from "../http/paging";
import { defineRoute } from "../http/route";
import { z } from "../http/zod";
import { queryIncidents } from "../repos/incidents";
import { INCIDENT_PAGE_EXAMPLE } from "./examples";
import { toIncident } from "./map";
import { INCIDENT_STATUSES, incidentSchema } from "./schemas";

const query = windowedListQuery(
  {
    from:
      "Inclusive lower bound on `event_date`. Incidents without an event date are " +
      "excluded when it is given.",
    to:
      "Exclusive upper bound on `event_date`. Incidents without an event date sort " +
      "first and are included.",
  },
  {
    status: z
      .enum(INCIDENT_STATUSES, { message: `must be one of ${INCIDENT_STATUSES.join(", ")}` })
      .optional()
      .openapi({ description: "Only incidents with this status." }),
  },
);

const responseSchema = pageOf(incidentSchema, "IncidentPage");

export const listIncidents = defineRoute({
  method: "get",
  path: "/v1/incidents",
  operationId: "listIncidents",
  summary: "The company's incident records, oldest event first",
  description:
    "Ordered by `event_date` ascending (incidents without one first), then by id. `from` " +
    "is inclusive and `to` exclusive, " +
    "both on `event_date`. Hidden incidents are removed after each page is read, so a " +
    "page may be short or even empty and " +
    "still have a `next_page_token`; page until it is null. A `page_token` is bound to " +
    "the key's company and every filter.",
  tags: ["Safety data"],
  scope: "read",
  query,
  rules: [WINDOW_RULE],
  success: {
    description: "One page of incidents.",
    schema: responseSchema,
    example: INCIDENT_PAGE_EXAMPLE,
  },
  errors: ["invalid_request"],
  handler: async ({ query: q, principal, tokenScope }) => {
    const { companyId } = principal;
    return (await paged(q, tokenScope, (after, limit) =>
      queryIncidents(
        companyId,
        {
          from: q.from,
          to: q.to,
          equality: q.status ? { field: "status", value: q.status } : undefined,
          after,
          limit,
        },
        pageRow(toIncident),
      ),
    )) satisfies PageBody<z.infer<typeof responseSchema>>;
  },
});
