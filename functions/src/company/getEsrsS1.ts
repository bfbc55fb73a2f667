import { invalidRequest, notFound } from "../http/errors";
import { defineRoute, Reply } from "../http/route";
import { z } from "../http/zod";
import { esrsReport } from "../services/esrs/cache";
import { CSV_COLUMNS, esrsCsv, esrsCsvFilename } from "../services/esrs/csv";
import { NoFrozenReportError, servedEsrs } from "../services/esrs/freeze";
import { taggingOf } from "../services/esrs/publishing";
import { PeriodNotBegunError } from "../services/esrs/report";
import { BASES, responseSchema, type GetEsrsS1Response } from "./esrsWire";
import { ESRS_EXAMPLE } from "./examples";
import { yearParam } from "./schemas";

const FORMATS = ["json", "csv"] as const;

const query = z
  .object({
    year: yearParam(
      "The reporting period, named by the calendar year it starts in (four digits): the " +
        "company's financial year in its reporting " +
        "time zone. A period that has not begun there is refused (400, naming the latest " +
        "period that has begun). Default: the period in progress.",
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
          "`live`: today's figures. `frozen`: the year's frozen version (404 when there " +
          "is none). Default: the frozen version when the year has one, else live.",
      }),
  })
  .strict();

const FATALITIES = taggingOf("S1-14_02").concept ?? "";
const CSV_EXAMPLE =
  `\uFEFF${CSV_COLUMNS.join(",")}\r\n` +
  [
    `S1-14_02,ESRS S1 88 (b),work_related_fatalities,0,count,0,${FATALITIES},0,pure,duration,`,
    ",,,,false,,",
    "2025-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,UTC,true,2026-02-10T09:30:00.000Z,frozen,1,",
    "2026-02-10T09:30:00.000Z,Deaths of employees and non-employees …\r\n",
  ].join("");

const csvSchema = z.string().openapi({
  description:
    `UTF-8 CSV with a byte order mark (RFC 4180, CRLF line ends) with the header row ` +
    `\`${CSV_COLUMNS.join(",")}\` and one row per datapoint, the same ` +
    "values as the JSON, breakdown rows included (null as an empty cell; the breakdown " +
    "as `breakdown_of`, `axis`, `member`), and on every row the period " +
    "(`period_start`, `period_end` as UTC instants, `time_zone`), its completeness, " +
    "`generated_at`, and `basis` with the frozen version served (`frozen_version`, " +
    "`frozen_at`; empty when live). Cells starting with `=`, `+`, `-` or `@` get a " +
    "leading `'` so spreadsheets never run them. " +
    'Sent with `Content-Disposition: attachment; filename="esrs-s1-14-<company_id>-<year>.csv"`.',
  example: CSV_EXAMPLE,
});

export const getEsrsS1 = defineRoute({
  method: "get",
  path: "/v1/esrs-s1",
  operationId: "getEsrsS1",
  summary: "ESRS S1-14 health and safety datapoints of one year",
  description:
    "The datapoints of ESRS S1 disclosure S1-14 (paragraphs 88–90, AR 81–82), computed " +
    "from incidents, worked hours and " +
    "the health and safety coverage entered in the app: the same numbers as the app's " +
    "ESRS export (at most once every 5 minutes " +
    "per company and year; `generated_at` says when). The period is the company's " +
    "financial year in its reporting time zone. Only work-related, not hidden incidents " +
    "count; deaths always, other cases when " +
    "recordable; injuries by event date, ill health by report date. A year frozen in the " +
    "app is served as frozen (who froze it and when in " +
    "`frozen`), with `restatement` listing where today's figures differ; `basis=live` " +
    "gives today's. `format=csv` answers `text/csv` with the same rows.",
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
      const filename = esrsCsvFilename(companyId, report.year);
      return new Reply(esrsCsv(report.datapoints, context), {
        contentType: "text/csv; charset=utf-8",
        headers: { "Content-Disposition": `attachment; filename="${filename}"` },
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
