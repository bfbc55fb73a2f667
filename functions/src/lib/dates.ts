/**
 * Instants given to the API: its date parameters are a calendar date
 * (`2026-03-01`, meaning 00:00 UTC) or a date-time with the UTC designator
 * (`2026-03-01T08:30:00Z`, fractions allowed); offsets other than `Z` and impossible dates
 * (`2026-02-30`) are refused.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?Z$/;

/** A UTC minute and a UTC day in milliseconds (no leap seconds in epoch time). */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** The shape of both forms, for the OpenAPI documents (the calendar check is parseInstant's). */
export const INSTANT_PATTERN = "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?Z)?$";

export interface Instant {
  seconds: number;
  nanos: number;
}

export function parseInstant(text: string): Instant | null {
  const date = DATE.exec(text);
  const dateTime = date ? null : DATE_TIME.exec(text);
  const m = date ?? dateTime;
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [
    m[1],
    m[2],
    m[3],
    m[4] ?? "0",
    m[5] ?? "0",
    m[6] ?? "0",
  ].map(Number);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  )
    return null;
  const fraction = dateTime?.[7] ?? "";
  return { seconds: ms / 1000, nanos: fraction ? Number(fraction.padEnd(9, "0")) : 0 };
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds - b.seconds || a.nanos - b.nanos;
}
