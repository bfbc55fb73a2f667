import { invalidRequest, notFound } from "../http/errors";
import { defineRoute, Reply } from "../http/route";
import { isoTimestamp, z } from "../http/zod";
import { esrsReport } from "../services/esrs/cache";
import { CSV_COLUMNS, esrsCsv, esrsCsvFilename } from "../services/esrs/csv";
import { OMISSIONS, UNITS } from "../services/esrs/datapoints";
import { NoFrozenReportError, servedEsrs } from "../services/esrs/freeze";
import { PeriodNotBegunError } from "../services/esrs/report";
import { ESRS_EXAMPLE } from "./examples";
import { yearParam } from "./schemas";

const FORMATS = ["json", "csv"] as const;
const BASES = ["frozen", "live"] as const;

const query = z
  .object({
    year: yearParam(
      "The reporting period, named by the calendar year it starts in (four digits): the company's financial year in its reporting " +
        "time zone. A period that has not begun there is refused (400, naming the latest period that has begun). Default: the period in progress.",
      1,
    ),
    format: z
      .enum(FORMATS, { message: 'must be "json" or "csv"' })
      .optional()
      .transform((f) => f ?? "json")
      .openapi({
        type: "string",
        enum: [...FORMATS],
        default: "json",
        description: "`json` (default) or `csv` (the same rows as a file).",
      }),
    basis: z
      .enum(BASES, { message: 'must be "frozen" or "live"' })
      .optional()
      .openapi({
        type: "string",
        enum: [...BASES],
        description:
          "`live`: today's figures. `frozen`: the year's frozen version (404 when there is none). Default: the frozen version when the year has one, else live.",
      }),
  })
  .strict();

const datapointSchema = z
  .object({
    datapoint_id: z
      .string()
      .openapi({ example: "S1-14_05", description: "EFRAG IG 3 datapoint id." }),
    esrs_paragraph: z.string().openapi({
      example: "ESRS S1 88 (c)",
      description:
        "Paragraph of ESRS S1 (Delegated Regulation (EU) 2023/2772) the datapoint answers.",
    }),
    name: z.string().openapi({
      example: "rate_of_recordable_work_related_accidents",
      description: "Stable snake_case name.",
    }),
    value: z.union([z.number(), z.string()]).nullable().openapi({
      description:
        "A number (text for `S1-14_11`), or null when it cannot be computed; `note` then says why. Percentages and rates are rounded to two decimals.",
    }),
    unit: z
      .enum(UNITS)
      .openapi({ description: "`percent`, `count`, `per_million_hours`, `days` or `text`." }),
    note: z.string().openapi({
      description:
        "How the value is computed, the period, whether it is incomplete, and the reason when the value is null.",
    }),
    breakdown: z
      .object({
        of: z
          .string()
          .openapi({ example: "S1-14_02", description: "The total row this row is part of." }),
        by: z.enum(["person_type", "cause"]).openapi({
          description:
            "`person_type` (¶88: employees / non-employees) or `cause` (AR 82: injury / ill health).",
        }),
        member: z.enum(["employee", "non_employee", "other_worker", "injury", "ill_health"]),
      })
      .nullable()
      .openapi({
        description: "Null on the twelve total rows; on a breakdown row, what it breaks down.",
      }),
    concept: z.string().nullable().openapi({
      description:
        "The ESRS XBRL taxonomy element. Null on every row for now: the element names could not be verified against the taxonomy's published files, and a guessed name would mis-tag a report; map by `datapoint_id` (EFRAG IG 3).",
    }),
    xbrl_value: z.union([z.number(), z.string()]).nullable().openapi({
      example: 0.8333,
      description:
        "`value` as the taxonomy types it: a percentage as a fraction (83.33 % → 0.8333), anything else as `value`.",
    }),
    xbrl_unit: z.enum(["pure"]).nullable().openapi({
      description: "`pure` for every number (counts, days, rates, fractions); null for text.",
    }),
    decimals: z.number().int().nullable().openapi({
      example: 2,
      description:
        "XBRL `decimals` of `xbrl_value`: 0 for counts and days, 4 for a fraction (two decimals of a percentage), 2 for rates or three significant digits below 1; null for text and null values.",
    }),
    period_type: z.enum(["duration", "instant"]).openapi({
      description:
        "`instant` for the coverage shares (headcounts at the period's end), `duration` otherwise.",
    }),
    axis: z
      .enum(["person_type", "cause"])
      .nullable()
      .openapi({ description: "The breakdown's axis (`breakdown.by`); null on a total row." }),
    member: z
      .enum(["employee", "non_employee", "other_worker", "injury", "ill_health"])
      .nullable()
      .openapi({ description: "The breakdown's member; null on a total row." }),
    voluntary: z.boolean().openapi({
      description:
        "A datapoint the undertaking may (not must) disclose: `S1-14_08`, `S1-14_09` (¶89), `S1-14_12` (AR 94).",
    }),
    omission: z.enum(OMISSIONS).nullable().openapi({
      description:
        "Why the company does not disclose it, as marked in the app: `not_collected_legal_restrictions` or `voluntary_not_disclosed`; the value is then null. Null: not marked.",
    }),
  })
  .openapi("EsrsDatapoint");

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
            "False while the period is in progress or any of its months has no worked hours: the figures are then not a full year's.",
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
            "Hours of no category (app records, API values without one): while above 0, the per-group rates are null.",
        }),
      })
      .openapi({
        description:
          "Hours worked in the period's months by the whole own workforce (employees and non-employees, AR 89), by source and by worker category: the sum of " +
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
          "The year's current frozen version, whether served or not; null when the year was never frozen.",
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
              "Every datapoint whose value from today's data differs from the frozen one (ESRS 1 §7.4: a restatement to disclose); empty when none does.",
          }),
      })
      .nullable()
      .openapi({ description: "Null when the year has no frozen version." }),
    generated_at: isoTimestamp.openapi({
      description:
        "When the numbers were computed from the live data. A report is computed at most once every 5 minutes per company and year and then served as it was, with this time: data changed since shows at the latest 5 minutes later.",
    }),
    datapoints: z.array(datapointSchema).openapi({
      description:
        "One row per datapoint, `S1-14_01` to `S1-14_12` in that order (`S1-14_12` always present, null when not collected), then the breakdown rows (`S1-14_02.employee`, …; see `breakdown`).",
    }),
  })
  .openapi("EsrsS1Report");

const responseSchema = z.object({ data: reportSchema });
export type GetEsrsS1Response = z.infer<typeof responseSchema>;

const CSV_EXAMPLE =
  `\uFEFF${CSV_COLUMNS.join(",")}\r\n` +
  "S1-14_02,ESRS S1 88 (b),work_related_fatalities,0,count,0,,0,pure,duration,,,,false,,2025-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,UTC,true,2026-02-10T09:30:00.000Z,frozen,1,2026-02-10T09:30:00.000Z,Deaths of employees and non-employees …\r\n";

const csvSchema = z.string().openapi({
  description:
    `UTF-8 CSV with a byte order mark (RFC 4180, CRLF line ends) with the header row \`${CSV_COLUMNS.join(",")}\` and one row per datapoint, the same ` +
    "values as the JSON, breakdown rows included (null as an empty cell; the breakdown as `breakdown_of`, `axis`, `member`), and on every row the period " +
    "(`period_start`, `period_end` as UTC instants, `time_zone`), its completeness, `generated_at`, and `basis` with the frozen version served (`frozen_version`, `frozen_at`; empty when live). Cells starting with `=`, `+`, `-` or `@` get a leading `'` so spreadsheets never run them. " +
    'Sent with `Content-Disposition: attachment; filename="esrs-s1-14-<company_id>-<year>.csv"`.',
  example: CSV_EXAMPLE,
});

export const getEsrsS1 = defineRoute({
  method: "get",
  path: "/v1/esrs-s1",
  operationId: "getEsrsS1",
  summary: "ESRS S1-14 health and safety datapoints of one year",
  description:
    "The datapoints of ESRS S1 disclosure S1-14 (paragraphs 88–90, AR 81–82), computed from incidents, worked hours and " +
    "the health and safety coverage entered in the app: the same numbers as the app's ESRS export (at most once every 5 minutes " +
    "per company and year; `generated_at` says when). The period is the company's " +
    "financial year in its reporting time zone. Only work-related, not hidden incidents count; deaths always, other cases when " +
    "recordable; injuries by event date, ill health by report date. A year frozen in the app is served as frozen (who froze it and when in " +
    "`frozen`), with `restatement` listing where today's figures differ; `basis=live` gives today's. `format=csv` answers `text/csv` with the same rows.",
  tags: ["Safety data"],
  scope: "read",
  query,
  success: {
    description: "The year's datapoints, as JSON or (with `format=csv`) as a CSV file.",
    schema: responseSchema,
    example: ESRS_EXAMPLE,
    alternatives: { "text/csv": { schema: csvSchema, example: CSV_EXAMPLE } },
  },
  errors: ["invalid_request", "not_found"],
  handler: async ({ query: q, principal }) => {
    const { companyId } = principal;
    const report = await servedEsrs(companyId, q.year, q.basis, (year) =>
      esrsReport(companyId, year),
    ).catch((err: unknown) => {
      if (err instanceof PeriodNotBegunError) throw invalidRequest(`year: ${err.message}.`);
      throw err instanceof NoFrozenReportError
        ? notFound(
            `No frozen ESRS S1-14 report exists for ${err.year}; basis=live gives today's figures.`,
          )
        : err;
    });
    if (q.format === "csv") {
      const { period: p, status, frozen } = report;
      const servedFrozen =
        report.basis === "frozen" && frozen
          ? { version: frozen.version, frozenAt: frozen.frozenAt.toISOString() }
          : null;
      const context = {
        periodStart: p.start.toISOString(),
        periodEnd: p.end.toISOString(),
        timeZone: p.timeZone,
        complete: status.complete,
        generatedAt: report.generatedAt.toISOString(),
        basis: report.basis,
        frozen: servedFrozen,
      };
      return new Reply(esrsCsv(report.datapoints, context), {
        contentType: "text/csv; charset=utf-8",
        headers: {
          "Content-Disposition": `attachment; filename="${esrsCsvFilename(companyId, report.year)}"`,
        },
      });
    }
    const { period, status } = report;
    return {
      data: {
        company_id: companyId,
        year: report.year,
        period: {
          start: period.start.toISOString(),
          end: period.end.toISOString(),
          time_zone: period.timeZone,
          first_month: period.firstMonth,
          months: period.months,
          complete: status.complete,
          in_progress: status.inProgress,
          months_without_hours: status.monthsWithoutHours,
        },
        worked_hours: report.hours,
        basis: report.basis,
        frozen: report.frozen && {
          version: report.frozen.version,
          frozen_at: report.frozen.frozenAt.toISOString(),
          frozen_by: report.frozen.frozenBy,
        },
        restatement: report.restatement && {
          live_generated_at: report.restatement.liveGeneratedAt.toISOString(),
          differences: report.restatement.differences,
        },
        generated_at: report.generatedAt.toISOString(),
        datapoints: report.datapoints,
      },
    } satisfies GetEsrsS1Response;
  },
});
