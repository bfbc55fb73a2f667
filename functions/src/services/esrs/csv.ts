import { stringify } from "csv-stringify/sync";
import type { EsrsRow } from "./rows";

/**
 * The CSV form of the ESRS S1-14 rows, for a tagging tool or a spreadsheet: the JSON's columns and
 * numbers, plus the breakdown, the period, its completeness and `generated_at` as columns of every
 * row (not inside notes), and whether they are a frozen version. UTF-8 with a BOM (so that Excel
 * reads "×" as "×", not "Ã—"), a header row, CRLF line ends and RFC 4180 quoting. Notes and values
 * are text a spreadsheet could run as a formula (`=`, `+`, `-`, `@` first), so those cells get a
 * leading `'`.
 */
export const CSV_COLUMNS = [
  "datapoint_id",
  "esrs_paragraph",
  "name",
  "value",
  "unit",
  "decimals",
  "concept",
  "xbrl_value",
  "xbrl_unit",
  "period_type",
  "breakdown_of",
  "axis",
  "member",
  "xbrl_member",
  "voluntary",
  "omission",
  "period_start",
  "period_end",
  "time_zone",
  "complete",
  "generated_at",
  "basis",
  "frozen_version",
  "frozen_at",
  "note",
] as const;

/**
 * What every row of one file shares: the period, when the numbers were computed, and whether they
 * are a frozen version.
 */
export interface CsvContext {
  periodStart: string;
  periodEnd: string;
  timeZone: string;
  complete: boolean;
  generatedAt: string;
  basis: "frozen" | "live";
  /** The year's frozen version served, or null when the rows are live. */
  frozen: { version: number; frozenAt: string } | null;
}

type Cell = string | number | null;

export function esrsCsv(rows: readonly EsrsRow[], context: CsvContext): string {
  const records = rows.map((r): Record<(typeof CSV_COLUMNS)[number], Cell> => ({
    datapoint_id: r.datapoint_id,
    esrs_paragraph: r.esrs_paragraph,
    name: r.name,
    value: r.value,
    unit: r.unit,
    decimals: r.decimals,
    concept: r.concept,
    xbrl_value: r.xbrl_value,
    xbrl_unit: r.xbrl_unit,
    period_type: r.period_type,
    breakdown_of: r.breakdown?.of ?? null,
    axis: r.axis,
    member: r.member,
    xbrl_member: r.xbrl_member,
    voluntary: String(r.voluntary),
    omission: r.omission,
    period_start: context.periodStart,
    period_end: context.periodEnd,
    time_zone: context.timeZone,
    complete: String(context.complete),
    generated_at: context.generatedAt,
    basis: context.basis,
    frozen_version: context.frozen?.version ?? null,
    frozen_at: context.frozen?.frozenAt ?? null,
    note: r.note,
  }));
  return stringify(records, {
    header: true,
    columns: [...CSV_COLUMNS],
    escape_formulas: true,
    record_delimiter: "\r\n",
    // With a custom record_delimiter, csv-stringify would leave a field holding a bare `\n` or
    // `\r` unquoted, and spreadsheets would split the row: quote those too.
    quote_record_delimiter: true,
    bom: true,
  });
}

/**
 * `esrs-s1-14-<companyId>-<year>.csv`, the id reduced to characters safe in a quoted header value
 * and a file name.
 */
export function esrsCsvFilename(companyId: string, year: number): string {
  const safeId = companyId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `esrs-s1-14-${safeId}-${year}.csv`;
}
