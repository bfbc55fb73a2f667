/** UTC calendar months: `YYYY-MM` keys and their [start, end) instants. */
export interface MonthWindow {
  key: string;
  start: Date;
  end: Date;
}

export const monthKey = (year: number, monthIndex: number) =>
  `${String(year).padStart(4, "0")}-${String(monthIndex + 1).padStart(2, "0")}`;

/** A month by year and zero-based index; the index may run past either end of the year. */
export function monthWindow(year: number, monthIndex: number): MonthWindow {
  const start = new Date(Date.UTC(year, monthIndex, 1));
  return {
    key: monthKey(start.getUTCFullYear(), start.getUTCMonth()),
    start,
    end: new Date(Date.UTC(year, monthIndex + 1, 1)),
  };
}

/**
 * Years the APIs report on: four digits, from 1900 (Date.UTC maps 0–99 to the 1900s), not in the
 * future (UTC).
 */
export const MIN_YEAR = 1900;
export const isReportableYear = (year: number, now = new Date()) =>
  Number.isInteger(year) && year >= MIN_YEAR && year <= now.getUTCFullYear();

/**
 * `YYYY-MM` from 1900-01, for the OpenAPI documents (isPastOrCurrentMonth also refuses months that
 * have not begun).
 */
export const MONTH_PATTERN = "^(19|[2-9]\\d)\\d{2}-(0[1-9]|1[0-2])$";

/** A `YYYY-MM` key of a real month (01–12) that has begun by `now` (UTC). */
export function isPastOrCurrentMonth(key: string, now = new Date()): boolean {
  const m = /^(\d{4})-(\d{2})$/.exec(key);
  if (!m) return false;
  const [year, month] = [Number(m[1]), Number(m[2])];
  if (year < MIN_YEAR || month < 1 || month > 12) return false;
  return (
    year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month <= now.getUTCMonth() + 1)
  );
}
