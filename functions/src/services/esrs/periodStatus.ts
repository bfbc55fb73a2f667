import { monthKey } from "../../lib/months";
import type { ReportingPeriod } from "../../lib/period";
import type { MonthHours } from "../workedHours";

/** Whether the period is a full one: over, and with hours in every month. */
export interface PeriodStatus {
  complete: boolean;
  inProgress: boolean;
  monthsWithoutHours: string[];
}

export function periodStatus(
  period: ReportingPeriod,
  hours: readonly MonthHours[],
  now: Date,
): PeriodStatus {
  const inProgress = now.getTime() < period.end.getTime();
  const monthsWithoutHours = hours.filter((m) => !(m.total > 0)).map((m) => m.month);
  return {
    complete: !inProgress && monthsWithoutHours.length === 0,
    inProgress,
    monthsWithoutHours,
  };
}

/** "1 April 2025 to 31 March 2026 (Europe/Berlin)", as local calendar dates. */
export function describePeriod(p: ReportingPeriod): string {
  const first = `${monthKey(p.year, p.firstMonth - 1)}-01`;
  const lastDay = new Date(Date.UTC(p.year, p.firstMonth - 1 + 12, 0));
  const lastMonth = monthKey(lastDay.getUTCFullYear(), lastDay.getUTCMonth());
  const last = `${lastMonth}-${String(lastDay.getUTCDate()).padStart(2, "0")}`;
  return `${first} to ${last} (${p.timeZone})`;
}

/** Why a period is not a full one, for the notes of its periodic rows. */
export function incompleteNote(period: ReportingPeriod, status: PeriodStatus): string {
  const why = [
    ...(status.inProgress ? ["it has not ended yet (year to date)"] : []),
    ...(status.monthsWithoutHours.length
      ? [`no worked hours are recorded for ${status.monthsWithoutHours.join(", ")}`]
      : []),
  ];
  return `Incomplete period ${describePeriod(period)}: ${why.join("; ")}.`;
}
