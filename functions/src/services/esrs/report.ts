import { periodYearAt, reportingPeriod, type ReportingPeriod } from "../../lib/period";
import type { AggregateStats } from "../../repos/aggregates";
import { findReportingSettings } from "../../repos/companies";
import { findCoverage } from "../../repos/coverage";
import { hoursBetween } from "../../repos/workedHours";
import { hoursByMonth } from "../workedHours";
import { evaluateByQueries } from "./queries";
import { buildRows, periodStatus, type EsrsRow, type PeriodStatus } from "./rows";

/**
 * The ESRS S1-14 report of one company and reporting period: the one calculation behind both
 * GET /v1/esrs-s1 and the app's esrsS1Report callable, so the two always agree. Reading
 * (computeEsrsReport) is kept apart from turning the inputs into rows (rows.ts), which the
 * unit tests run without Firestore.
 */
export interface EsrsReport {
  companyId: string;
  year: number;
  period: ReportingPeriod;
  status: PeriodStatus;
  /** The period's worked hours, by source: what the rate divides by. */
  hours: { total: number; app: number; api: number };
  generatedAt: Date;
  datapoints: EsrsRow[];
}

const countRead = (stats: AggregateStats) => {
  stats.documentsRead++;
  if (stats.billedReads !== undefined) stats.billedReads++;
};

/**
 * Reads the inputs (the company's period settings, the coverage document, the period's worked-hours
 * records, the hidden incidents and a fixed set of incident aggregations) and builds the rows.
 * Hours are summed by the same code as GET /v1/worked-hours. No year: the period in progress at
 * `now`. `stats` counts the work.
 */
export async function computeEsrsReport(companyId: string, requestedYear: number | undefined, stats: AggregateStats = { queries: 0, documentsRead: 0 }, now = new Date()): Promise<EsrsReport> {
  const settings = await findReportingSettings(companyId);
  countRead(stats);
  const year = requestedYear ?? periodYearAt(now, settings);
  const period = reportingPeriod(year, settings);
  const [coverage, records, incidents] = await Promise.all([
    findCoverage(companyId, year).then((doc) => {
      countRead(stats);
      return doc;
    }),
    hoursBetween(companyId, period.months[0], period.months[11], stats),
    evaluateByQueries(companyId, period, stats),
  ]);
  const hours = hoursByMonth(period.months, records);
  const status = periodStatus(period, hours, now);
  const sum = (key: "total" | "app" | "api") => hours.reduce((total, m) => total + m[key], 0);
  return { companyId, year, period, status, hours: { total: sum("total"), app: sum("app"), api: sum("api") }, generatedAt: now, datapoints: buildRows(period, { incidents, hours, coverage }, status) };
}
