import type { MonthWindow } from "../lib/months";

/** A month's worked hours by source: the app's records summed, the API's value, and both. */
export interface MonthHours {
  month: string;
  app_hours: number;
  api_hours: number;
  total_hours: number;
}

export function hoursByMonth(months: readonly MonthWindow[], records: ReadonlyArray<{ month: string; hours: number; source: "app" | "api" }>): MonthHours[] {
  return months.map(({ key }) => {
    const of = (source: "app" | "api") => records.filter((r) => r.month === key && r.source === source).reduce((sum, r) => sum + r.hours, 0);
    const [app, api] = [of("app"), of("api")];
    return { month: key, app_hours: app, api_hours: api, total_hours: app + api };
  });
}
