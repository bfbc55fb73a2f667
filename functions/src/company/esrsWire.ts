import { isoTimestamp, z } from "../http/zod";
import { datapointSchema } from "./esrsDatapointWire";

export const BASES = ["frozen", "live"] as const;

/** The wire shape of `GET /v1/esrs-s1` (JSON): the report around its datapoint rows. */
const reportSchema = z
  .object({
    company_id: z.string(),
    year: z
      .number()
      .int()
      .openapi({ description: "The reporting period, named by the calendar year it starts in." }),
    period: z
      .object({
        start: isoTimestamp.openapi({
          description: "Local midnight on the period's first day, as a UTC instant (inclusive).",
        }),
        end: isoTimestamp.openapi({
          description: "Local midnight on the next period's first day (exclusive).",
        }),
        time_zone: z.string().openapi({
          example: "Europe/Berlin",
          description: "The company's reporting time zone (IANA); default `UTC`.",
        }),
        first_month: z.number().int().openapi({
          example: 1,
          description: "First month of the financial year, 1–12; default 1.",
        }),
        months: z.array(z.string()).openapi({
          description: "The twelve `YYYY-MM` months whose worked hours belong to the period.",
        }),
        complete: z.boolean().openapi({
          description:
            "False while the period is in progress or any of its months has no worked " +
            "hours: the figures are then not a full year's.",
        }),
        in_progress: z
          .boolean()
          .openapi({ description: "The period has not ended yet (year to date)." }),
        months_without_hours: z
          .array(z.string())
          .openapi({ description: "Months of the period with no worked hours recorded." }),
      })
      .openapi("EsrsPeriod"),
    worked_hours: z
      .object({
        total: z.number(),
        app: z.number(),
        api: z.number(),
        employees: z
          .number()
          .openapi({ description: "Hours sent with `worker_category: employees`." }),
        non_employees: z
          .number()
          .openapi({ description: "Hours sent with `worker_category: non_employees`." }),
        unattributed: z.number().openapi({
          description:
            "Hours of no category (app records, API values without one): while above 0, " +
            "the per-group rates are null.",
        }),
      })
      .openapi({
        description:
          "Hours worked in the period's months by the whole own workforce (employees and " +
          "non-employees, AR 89), by source and by worker category: the sum of " +
          "`GET /v1/worked-hours` for the same year, and what the rate divides by.",
      }),
    basis: z.enum(BASES).openapi({
      description:
        "`frozen`: the rows as frozen (see `frozen`); `live`: computed from today's data.",
    }),
    frozen: z
      .object({
        version: z.number().int().openapi({
          example: 2,
          description: "1 for the first freeze; earlier versions are kept.",
        }),
        frozen_at: isoTimestamp,
        frozen_by: z
          .object({ type: z.string(), id: z.string(), name: z.string() })
          .openapi({ description: "The console user (or operator) who froze it." }),
      })
      .nullable()
      .openapi({
        description:
          "The year's current frozen version, whether served or not; null when the year " +
          "was never frozen.",
      }),
    restatement: z
      .object({
        live_generated_at: isoTimestamp,
        differences: z
          .array(
            z.object({
              datapoint_id: z.string(),
              frozen_value: z.union([z.number(), z.string()]).nullable(),
              live_value: z.union([z.number(), z.string()]).nullable(),
            }),
          )
          .openapi({
            description:
              "Every datapoint whose value from today's data differs from the frozen one " +
              "(ESRS 1 §7.4: a restatement to disclose); empty when none does.",
          }),
      })
      .nullable()
      .openapi({ description: "Null when the year has no frozen version." }),
    generated_at: isoTimestamp.openapi({
      description:
        "When the numbers were computed from the live data. A report is computed at most " +
        "once every 5 minutes per company and year and then served as it was, with " +
        "this time: data changed since shows at the latest 5 minutes later.",
    }),
    datapoints: z.array(datapointSchema).openapi({
      description:
        "One row per datapoint, `S1-14_01` to `S1-14_12` in that order (`S1-14_12` " +
        "always present, null when not collected), then the breakdown rows " +
        "(`S1-14_02.employee`, …; see `breakdown`).",
    }),
  })
  .openapi("EsrsS1Report");

export const responseSchema = z.object({ data: reportSchema });
export type GetEsrsS1Response = z.infer<typeof responseSchema>;
