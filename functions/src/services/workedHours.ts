/**
 * A month's worked hours by source: the app's records summed, the API's value, and both. The
 * one summation behind GET /v1/worked-hours and the ESRS rate, so the two cannot differ.
 */
export interface MonthHours {
  month: string;
  app: number;
  api: number;
  total: number;
}

export function hoursByMonth(months: readonly string[], records: ReadonlyArray<{ month: string; hours: number; source: "app" | "api" }>): MonthHours[] {
  return months.map((key) => {
    const of = (source: "app" | "api") => records.filter((r) => r.month === key && r.source === source).reduce((sum, r) => sum + r.hours, 0);
    const [app, api] = [of("app"), of("api")];
    return { month: key, app, api, total: app + api };
  });
}
