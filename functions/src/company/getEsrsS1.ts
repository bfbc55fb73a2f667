import { authenticated } from "../http/context";
import { defineRoute, Reply } from "../http/route";
import { z } from "../http/zod";
import { CSV_COLUMNS, esrsCsv, esrsCsvFilename } from "../services/esrs/csv";
import { UNITS } from "../services/esrs/datapoints";
import { computeEsrsReport } from "../services/esrs/report";
import { isoTimestamp } from "../http/zod";
import { yearParam } from "./schemas";

const FORMATS = ["json", "csv"] as const;

const query = z
  .object({
    year: yearParam("The reporting year (UTC calendar year, four digits, not in the future). Default: the current UTC year."),
    format: z
      .enum(FORMATS, { message: 'must be "json" or "csv"' })
      .optional()
      .transform((f) => f ?? "json")
      .openapi({ type: "string", enum: [...FORMATS], default: "json", description: "`json` (default) or `csv` (the same rows as a file)." }),
  })
  .strict();

const datapointSchema = z
  .object({
    datapoint_id: z.string().openapi({ example: "S1-14_05", description: "EFRAG IG 3 datapoint id." }),
    esrs_paragraph: z.string().openapi({ example: "ESRS S1 88 (c)", description: "Paragraph of ESRS S1 (Delegated Regulation (EU) 2023/2772) the datapoint answers." }),
    name: z.string().openapi({ example: "rate_of_recordable_work_related_accidents", description: "Stable snake_case name." }),
    value: z
      .union([z.number(), z.string()])
      .nullable()
      .openapi({ description: "A number (text for `S1-14_11`), or null when it cannot be computed; `note` then says why. Percentages and rates are rounded to two decimals." }),
    unit: z.enum(UNITS).openapi({ description: "`percent`, `count`, `per_million_hours`, `days` or `text`." }),
    note: z.string().openapi({ description: "How the value is computed, and the reason when it is null." }),
  })
  .openapi("EsrsDatapoint");

const reportSchema = z
  .object({
    company_id: z.string(),
    year: z.number().int().openapi({ description: "The UTC calendar year reported: incidents by event date, worked hours of its twelve months." }),
    generated_at: isoTimestamp.openapi({ description: "When the numbers were computed (on every request, from the live data)." }),
    datapoints: z.array(datapointSchema).openapi({ description: "One row per datapoint, `S1-14_01` to `S1-14_11`, in that order." }),
  })
  .openapi("EsrsS1Report");

const responseSchema = z.object({ data: reportSchema });
export type GetEsrsS1Response = z.infer<typeof responseSchema>;

const csvSchema = z.string().openapi({
  description:
    `UTF-8 CSV (RFC 4180, CRLF line ends, no BOM) with the header row \`${CSV_COLUMNS.join(",")}\` and one row per datapoint, the same ` +
    "values as the JSON (null as an empty cell). Cells starting with `=`, `+`, `-` or `@` get a leading `'` so spreadsheets never run them. " +
    'Sent with `Content-Disposition: attachment; filename="esrs-s1-14-<company_id>-<year>.csv"`.',
  example: `${CSV_COLUMNS.join(",")}\r\nS1-14_02,ESRS S1 88 (b),work_related_fatalities,0,count,Fatal incidents of employees and non-employees …\r\n`,
});

export const getEsrsS1 = defineRoute({
  method: "get",
  path: "/v1/esrs-s1",
  operationId: "getEsrsS1",
  summary: "ESRS S1-14 health and safety datapoints of one year",
  description:
    "The datapoints of ESRS S1 disclosure S1-14 (paragraphs 88–90, AR 81), computed on request from incidents, worked hours and " +
    "the health and safety coverage entered in the app: the same numbers as the app's ESRS export. Only work-related, recordable, " +
    "not hidden incidents count, by event date in the UTC year. `format=csv` answers `text/csv` with the same rows.",
  tags: ["Safety data"],
  scope: "read",
  query,
  success: { description: "The year's datapoints, as JSON or (with `format=csv`) as a CSV file.", schema: responseSchema, alternatives: { "text/csv": csvSchema } },
  errors: ["invalid_request", "unauthorized", "forbidden", "rate_limited", "internal"],
  handler: async ({ query: q, principal }) => {
    const { companyId } = authenticated(principal);
    const report = await computeEsrsReport(companyId, q.year);
    if (q.format === "csv") {
      return new Reply(esrsCsv(report.datapoints), {
        contentType: "text/csv; charset=utf-8",
        headers: { "Content-Disposition": `attachment; filename="${esrsCsvFilename(companyId, q.year)}"` },
      });
    }
    return {
      data: { company_id: companyId, year: report.year, generated_at: report.generatedAt.toISOString(), datapoints: report.datapoints },
    } satisfies GetEsrsS1Response;
  },
});
