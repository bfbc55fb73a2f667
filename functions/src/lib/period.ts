import { monthWindow } from "./months";

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
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
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
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const at = (type: string) => Number(parts[type]);
  return Date.UTC(at("year"), at("month") - 1, at("day"), at("hour"), at("minute"), at("second"));
}

/** The instant of local midnight on the first of a month; the index may run past either end of the year. */
export function zonedMonthStart(year: number, monthIndex: number, timeZone: string): Date {
  const local = Date.UTC(year, monthIndex, 1);
  // Guess with the offset at the local reading, then correct once with the offset at the guess
  // (they differ only when a DST change falls between the two).
  const first = local - (wallClock(timeZone, local) - local);
  return new Date(local - (wallClock(timeZone, first) - first));
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
  return local.getUTCMonth() + 1 >= settings.firstMonth ? local.getUTCFullYear() : local.getUTCFullYear() - 1;
}
