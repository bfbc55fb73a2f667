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

/** Firestore's Timestamp range in epoch milliseconds: 0001-01-01 to 9999-12-31, both whole. */
const FIRST_MS = -62_135_596_800_000;
const LAST_MS = 253_402_300_799_999;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
const pad4 = (n: number) => (n < 1000 ? `0${pad3(n)}` : `${n}`);

/**
 * `new Date(ms).toISOString()` for a whole number of milliseconds, built from the civil date
 * (H. Hinnant's days-to-civil) for Firestore's whole range, where the year has four digits.
 * V8's toISOString costs about 0.75 µs a call and a page of 500 findings formats some 4,000
 * dates; this costs about a third of that (docs/benchmarks.md). Outside the range: toISOString.
 */
export function isoOfMillis(ms: number): string {
  if (!(ms >= FIRST_MS && ms <= LAST_MS) || !Number.isInteger(ms))
    return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(inDay / 3_600_000);
  const minute = Math.floor(inDay / MINUTE_MS) % 60;
  const second = Math.floor(inDay / 1000) % 60;
  return (
    `${pad4(year)}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:` +
    `${pad2(second)}.${pad3(inDay % 1000)}Z`
  );
}

type StoredTime = { seconds: number; nanoseconds: number };

/**
 * A stored Timestamp as ISO-8601 UTC with milliseconds, finer precision cut (as
 * `Timestamp.toMillis()` cuts): a watermark taken from what was served is never later than what
 * is stored (docs/findings-export-api.md). Null for none.
 */
export function toIso(value: StoredTime): string;
export function toIso(value: StoredTime | null): string | null;
export function toIso(value: StoredTime | null): string | null {
  return value ? isoOfMillis(value.seconds * 1000 + Math.floor(value.nanoseconds / 1e6)) : null;
}
