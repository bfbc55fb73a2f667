import { stringify } from "csv-stringify/sync";
import type { EsrsRow } from "./rows";

/**
 * The CSV form of the ESRS S1-14 rows: the JSON's columns and numbers, a header row, UTF-8
 * without BOM, CRLF line ends and RFC 4180 quoting. Notes and values are text a spreadsheet
 * could run as a formula (`=`, `+`, `-`, `@` first), so those cells get a leading `'`.
 */
export const CSV_COLUMNS = ["datapoint_id", "esrs_paragraph", "name", "value", "unit", "note"] as const satisfies ReadonlyArray<keyof EsrsRow>;

export function esrsCsv(rows: readonly EsrsRow[]): string {
  return stringify([...rows], {
    header: true,
    columns: [...CSV_COLUMNS],
    escape_formulas: true,
    record_delimiter: "\r\n",
    // With a custom record_delimiter, csv-stringify would leave a field holding a bare `\n` or
    // `\r` unquoted, and spreadsheets would split the row: quote those too.
    quote_record_delimiter: true,
    bom: false,
  });
}

/** `esrs-s1-14-<companyId>-<year>.csv`, the id reduced to characters safe in a quoted header value and a file name. */
export function esrsCsvFilename(companyId: string, year: number): string {
  const safeId = companyId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
  return `esrs-s1-14-${safeId}-${year}.csv`;
}
