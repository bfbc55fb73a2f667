import type { StoredHours } from "../repos/hoursRecords";

/**
 * A month's worked hours by source and by worker category: the app's records summed, the API's
 * values, and all of them. The one summation behind GET /v1/worked-hours and the ESRS rate, so
 * the two cannot differ. Every record of a month is added: each stands for its own part of the own
 * workforce (the integrator guide says so), and a category only says which group that part is.
 */
export interface MonthHours {
  month: string;
  app: number;
  api: number;
  total: number;
  /**
   * Hours recorded for employees, for non-employees, and not attributed to either (the rest of
   * `total`).
   */
  employees: number;
  nonEmployees: number;
  unattributed: number;
}

type Record = Pick<StoredHours, "month" | "hours" | "source"> &
  Partial<Pick<StoredHours, "workerCategory">>;

export function hoursByMonth(months: readonly string[], records: readonly Record[]): MonthHours[] {
  return months.map((key) => {
    const mine = records.filter((r) => r.month === key);
    const sum = (pick: (r: Record) => boolean) =>
      mine.filter(pick).reduce((total, r) => total + r.hours, 0);
    const [app, api] = [sum((r) => r.source === "app"), sum((r) => r.source === "api")];
    const [employees, nonEmployees] = [
      sum((r) => r.workerCategory === "employees"),
      sum((r) => r.workerCategory === "non_employees"),
    ];
    return {
      month: key,
      app,
      api,
      total: app + api,
      employees,
      nonEmployees,
      unattributed: sum((r) => !r.workerCategory),
    };
  });
}
