import { monthWindow, type MonthWindow } from "./months";

/**
 * The undertaking's reporting period (ESRS 1 ¶73: its financial year) in its own time zone.
 * `year` names the calendar year the period starts in: with a financial year from April, 2025
 * is 1 April 2025 00:00 to 1 April 2026 00:00 local time. Naming by the start year keeps "not in
 * the future" meaning "the period has begun", and is the calendar year when it starts in January.
 */
export interface ReportingSettings {
  /** IANA time zone, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** First month of the financial year, 1 (January) to 12. */
  firstMonth: number;
}

export const DEFAULT_REPORTING: ReportingSettings = { timeZone: "UTC", firstMonth: 1 };

export interface ReportingPeriod extends ReportingSettings {
  year: number;
  /** Local midnight on the first day, as an instant (inclusive). */
  start: Date;
  /** Local midnight on the first day of the next period (exclusive). */
  end: Date;
  /** The twelve `YYYY-MM` keys of worked hours that belong to the period, oldest first. */
  months: string[];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The local wall-clock reading of an instant, expressed as if it were UTC milliseconds. */
function wallClock(timeZone: string, instant: number): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const at = (type: string) => Number(parts[type]);
  return Date.UTC(at("year"), at("month") - 1, at("day"), at("hour"), at("minute"), at("second"));
}

/**
 * The first instant of the first day of a month in the zone: local midnight, or, where the clocks
 * jump over midnight (America/Asuncion on 1 October 2023: 00:00 → 01:00), the instant of the jump,
 * never 23:00 the day before. Where midnight occurs twice, the first. The index may run past
 * either end of the year.
 */
export function zonedMonthStart(year: number, monthIndex: number, timeZone: string): Date {
  const local = Date.UTC(year, monthIndex, 1);
  // The two offsets around the date: at the local reading taken as UTC, and at the first guess.
  const early = local - (wallClock(timeZone, local) - local);
  const late = local - (wallClock(timeZone, early) - early);
  const exact = [early, late].filter((t) => wallClock(timeZone, t) === local).sort((a, b) => a - b);
  if (exact.length) return new Date(exact[0]);
  // Midnight does not exist: the day starts at the first instant whose reading is at or after it,
  // which lies between the two guesses (the readings only move forward across a gap).
  let [lo, hi] = [Math.min(early, late), Math.max(early, late)];
  if (wallClock(timeZone, lo) >= local) return new Date(lo);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (wallClock(timeZone, mid) >= local) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

export function reportingPeriod(year: number, settings: ReportingSettings): ReportingPeriod {
  const firstIndex = settings.firstMonth - 1;
  return {
    ...settings,
    year,
    start: zonedMonthStart(year, firstIndex, settings.timeZone),
    end: zonedMonthStart(year, firstIndex + 12, settings.timeZone),
    months: Array.from({ length: 12 }, (_, i) => monthWindow(year, firstIndex + i).key),
  };
}

/** The year of the period that contains `now`, in the settings' time zone. */
export function periodYearAt(now: Date, settings: ReportingSettings): number {
  const local = new Date(wallClock(settings.timeZone, now.getTime()));
  return local.getUTCMonth() + 1 >= settings.firstMonth
    ? local.getUTCFullYear()
    : local.getUTCFullYear() - 1;
}

/**
 * The `count` most recent months of the zone's calendar up to and including the one `now` falls
 * in, oldest first: keys and instants, so that monthly counts follow the company's one calendar.
 */
export function recentZonedMonths(now: Date, count: number, timeZone: string): MonthWindow[] {
  const local = new Date(wallClock(timeZone, now.getTime()));
  const [year, month] = [local.getUTCFullYear(), local.getUTCMonth()];
  return Array.from({ length: count }, (_, i) => {
    const index = month - (count - 1 - i);
    return {
      key: monthWindow(year, index).key,
      start: zonedMonthStart(year, index, timeZone),
      end: zonedMonthStart(year, index + 1, timeZone),
    };
  });
}
