import { periodYearAt, reportingPeriod, type ReportingPeriod } from "../../lib/period";
import { findEsrsSettings } from "../../repos/companies";
import { findCoverage, type CoverageDoc } from "../../repos/coverage";
import { hoursBetween } from "../../repos/hoursRecords";
import { hoursByMonth, type MonthHours } from "../workedHours";
import { evaluateCases, type Basis, type IncidentFacts } from "./evaluate";
import { describePeriod, periodStatus, type PeriodStatus } from "./periodStatus";
import { readCases } from "./queries";
import { buildRows, type EsrsRow } from "./rows";

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
  /** The period's worked hours, by source and worker category: what the rates divide by. */
  hours: {
    total: number;
    app: number;
    api: number;
    employees: number;
    non_employees: number;
    unattributed: number;
  };
  generatedAt: Date;
  datapoints: EsrsRow[];
  /** Per incident datapoint, the incidents its value is made of (a frozen report keeps them). */
  basis: Record<string, Basis>;
  /** The inputs as read: the period's candidate cases, its months' hours, the coverage document. */
  inputs: { cases: IncidentFacts[]; monthHours: MonthHours[]; coverage: CoverageDoc | null };
}

/** The figures alone, without what they were made of: what the cache keeps and the API serves. */
export type EsrsFigures = Omit<EsrsReport, "basis" | "inputs">;

/**
 * The figures of a report, dropping its inputs (the cache would otherwise hold every case it read).
 */
export const figuresOf = ({
  companyId,
  year,
  period,
  status,
  hours,
  generatedAt,
  datapoints,
}: EsrsReport): EsrsFigures => ({
  companyId,
  year,
  period,
  status,
  hours,
  generatedAt,
  datapoints,
});

/** A year whose period has not begun in the company's calendar: no figures, not even zeros. */
export class PeriodNotBegunError extends Error {
  constructor(
    readonly period: ReportingPeriod,
    /** The latest period that has begun. */
    readonly latestYear: number,
  ) {
    super(
      `the ${period.year} reporting period (${describePeriod(period)}) has not begun; ` +
        `the latest period that has begun is ${latestYear}`,
    );
    this.name = "PeriodNotBegunError";
  }
}

/**
 * Reads the inputs (the company's period settings, the coverage document, the period's worked-hours
 * records and the period's candidate cases) and builds the rows. A period that has not begun at
 * `now` is refused (PeriodNotBegunError).
 * Hours are summed by the same code as GET /v1/worked-hours. No year: the period in progress at
 * `now`.
 */
export async function computeEsrsReport(
  companyId: string,
  requestedYear: number | undefined,
  now = new Date(),
): Promise<EsrsReport> {
  const { reporting: settings, omissions } = await findEsrsSettings(companyId);
  const year = requestedYear ?? periodYearAt(now, settings);
  const period = reportingPeriod(year, settings);
  if (period.start.getTime() > now.getTime())
    throw new PeriodNotBegunError(period, periodYearAt(now, settings));
  const [coverage, records, cases] = await Promise.all([
    findCoverage(companyId, year),
    hoursBetween(companyId, period.months[0], period.months[11]),
    readCases(companyId, period),
  ]);
  const { values: incidents, basis } = evaluateCases(cases, period);
  const hours = hoursByMonth(period.months, records);
  const status = periodStatus(period, hours, now);
  const sum = (key: "total" | "app" | "api" | "employees" | "nonEmployees" | "unattributed") =>
    hours.reduce((total, m) => total + m[key], 0);
  const byCategory = {
    employees: sum("employees"),
    non_employees: sum("nonEmployees"),
    unattributed: sum("unattributed"),
  };
  return {
    companyId,
    year,
    period,
    status,
    hours: { total: sum("total"), app: sum("app"), api: sum("api"), ...byCategory },
    generatedAt: now,
    datapoints: buildRows(period, { incidents, basis, hours, coverage, omissions }, status),
    basis,
    inputs: { cases, monthHours: hours, coverage },
  };
}
