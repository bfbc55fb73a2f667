import { notFound } from "../http/errors";
import { defineRoute } from "../http/route";
import { isoTimestamp, z } from "../http/zod";
import { findRollup } from "../repos/kpiRollups";
import { MONTHS } from "../services/kpiRollup";
import { KPIS_EXAMPLE } from "./examples";

const counts = (description: string) => z.record(z.string(), z.number()).openapi({ description });
const byMonth = counts(
  `The ${MONTHS} most recent UTC months up to and including the month of \`generated_at\`, oldest first, zero-filled: \`"YYYY-MM": number\`.`,
);

// Generic in its extra fields, so that the response type knows `by_type` of the incidents area.
const area = <E extends z.ZodRawShape>(name: string, extra: E = {} as E) =>
  z
    .object({
      total: z.number().int().openapi({ description: "All records of the area, of any date." }),
      by_month: byMonth,
      by_status: counts("Records per status value present (values with no record are left out)."),
      ...extra,
    })
    .openapi(name);

const areaSchema = area("KpiArea");
const rollupSchema = z
  .object({
    generated_at: isoTimestamp.openapi({
      description: "When the rollup was computed; it is refreshed daily.",
    }),
    months: z.array(z.string()).openapi({
      description: `The ${MONTHS} month keys, oldest first.`,
      example: ["2024-12", "…", "2026-11"],
    }),
    areas: z.object({
      incidents: area("KpiIncidentArea", {
        by_type: counts("Incidents per type present."),
      }).openapi({
        description:
          "By event date (UTC months); hidden incidents never count (the same incidents as `GET /v1/incidents`).",
      }),
      findings: areaSchema.openapi({ description: "Actions, by creation date." }),
      inspections: areaSchema,
      assets: areaSchema,
      risk_assessments: areaSchema,
      locations: areaSchema,
      worked_hours: z
        .object({
          total: z.number().openapi({
            description:
              "Hours of every record with numeric hours, all sources (a record whose `month` is not a `YYYY-MM` key counts here, in no month).",
          }),
          by_month: byMonth.openapi({
            description:
              "Hours per month, app and API sources summed; zero-filled. A year's months add up to `GET /v1/worked-hours` and the ESRS hours of that year.",
          }),
          by_source: z.object({ app: z.number(), api: z.number() }).openapi({
            description:
              "Hours per source, all months: `api` the API's values, `app` every other record (one without `source` included), so app + api = total.",
          }),
        })
        .openapi("KpiWorkedHours"),
    }),
  })
  .openapi("KpiRollup");

const responseSchema = z.object({ data: rollupSchema });
export type GetKpisResponse = z.infer<typeof responseSchema>;

export const getKpis = defineRoute({
  method: "get",
  path: "/v1/kpis",
  operationId: "getKpis",
  summary: "The company's pre-aggregated KPI rollup",
  description:
    "Counts per area for the 24 most recent UTC months and per status, computed daily by a job (and on demand from the app). " +
    "404 `not_found` until the first rollup has been generated.",
  tags: ["Safety data"],
  scope: "read",
  query: z.object({}).strict(),
  success: { description: "The latest rollup.", schema: responseSchema, example: KPIS_EXAMPLE },
  errors: ["invalid_request", "not_found"],
  handler: async ({ principal }) => {
    const NOT_YET =
      "The KPI rollup has not been generated yet for this company; it is computed daily, or on demand from the app.";
    const stored = await findRollup(principal.companyId);
    if (!stored) throw notFound(NOT_YET);
    // Written by our own job; one that no longer fits the documented shape is treated as missing.
    const parsed = rollupSchema.safeParse({
      generated_at: stored.generatedAt.toISOString(),
      months: stored.months,
      areas: stored.areas,
    });
    if (!parsed.success) throw notFound(NOT_YET);
    return { data: parsed.data } satisfies GetKpisResponse;
  },
});
