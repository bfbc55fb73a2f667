import { notFound } from "../http/errors";
import { defineRoute } from "../http/route";
import { z } from "../http/zod";
import { findRollup } from "../repos/kpiRollups";
import { KPIS_EXAMPLE } from "./examples";
import { rollupSchema } from "./schemas";

const responseSchema = z.object({ data: rollupSchema });

export const getKpis = defineRoute({
  method: "get",
  path: "/v1/kpis",
  operationId: "getKpis",
  summary: "The company's pre-aggregated KPI rollup",
  description:
    "Counts per area for the 24 most recent UTC months and per status, computed daily by " +
    "a job (and on demand from the app). " +
    "404 `not_found` until the first rollup has been generated.",
  tags: ["Safety data"],
  scope: "read",
  query: z.object({}).strict(),
  success: { description: "The latest rollup.", schema: responseSchema, example: KPIS_EXAMPLE },
  errors: ["invalid_request", "not_found"],
  handler: async ({ principal }) => {
    const NOT_YET =
      "The KPI rollup has not been generated yet for this company; it is computed daily, " +
      "or on demand from the app.";
    const stored = await findRollup(principal.companyId);
    if (!stored) throw notFound(NOT_YET);
    // Written by our own job; one that no longer fits the documented shape is treated as missing.
    const parsed = rollupSchema.safeParse({
      generated_at: stored.generatedAt.toISOString(),
      months: stored.months,
      areas: stored.areas,
    });
    if (!parsed.success) throw notFound(NOT_YET);
    return { data: parsed.data } satisfies z.infer<typeof responseSchema>;
  },
});
