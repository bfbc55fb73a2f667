import type { ReportingPeriod } from "../../lib/period";
import type { AuditActor } from "../../repos/auditLogs";
import { findFrozenReport, saveFrozenReport } from "../../repos/esrsReports";
import type { PeriodStatus } from "./periodStatus";
import { computeEsrsReport, type EsrsFigures, type EsrsReport } from "./report";
import type { EsrsRow } from "./rows";

/**
 * Frozen ESRS S1-14 reports (ESRS 1 §7.4: a published figure changes only by a stated
 * restatement). Freezing stores a year's rows together with what they were made of: the
 * incidents behind every incident figure (their ids per datapoint and the facts read), the
 * months' hours and the coverage document, and who froze it when. Freezing again keeps the earlier
 * version. The live figures stay available; `restatement` lists where they differ.
 */
export class FreezeRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FreezeRefusedError";
  }
}

/** A frozen report as served: the rows and period it was frozen with, and who froze it when. */
export interface FrozenEsrs {
  version: number;
  frozenAt: Date;
  frozenBy: AuditActor;
  generatedAt: Date;
  period: Pick<ReportingPeriod, "start" | "end" | "timeZone" | "firstMonth" | "months">;
  status: PeriodStatus;
  hours: EsrsReport["hours"];
  datapoints: EsrsRow[];
}

export interface Difference {
  datapoint_id: string;
  frozen_value: EsrsRow["value"];
  live_value: EsrsRow["value"];
}

/** Plain Firestore data: Dates as ISO text, no `undefined`. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * Freezes the year's report as computed now; refused while the period runs (its figures are not
 * final).
 */
export async function freezeEsrsReport(
  companyId: string,
  year: number,
  actor: AuditActor,
  now = new Date(),
): Promise<{ version: number; frozenAt: Date; report: EsrsReport }> {
  const report = await computeEsrsReport(companyId, year, now);
  if (report.status.inProgress)
    throw new FreezeRefusedError(
      `the ${year} reporting period has not ended: only a finished year can be frozen.`,
    );
  const ids = new Set(Object.values(report.basis).flatMap((b) => b.incidents));
  const { period } = report;
  const content = plain({
    generatedAt: report.generatedAt,
    period: {
      start: period.start,
      end: period.end,
      timeZone: period.timeZone,
      firstMonth: period.firstMonth,
      months: period.months,
    },
    status: report.status,
    hours: report.hours,
    datapoints: report.datapoints,
    basis: report.basis,
    incidents: report.inputs.cases.filter((c) => c.id !== undefined && ids.has(c.id)),
    monthHours: report.inputs.monthHours,
    coverage: report.inputs.coverage,
  }) as Record<string, unknown>;
  const { version, frozenAt } = await saveFrozenReport(companyId, year, content, actor);
  return { version, frozenAt, report };
}

/** The current frozen version of a year, as served, or null. */
export async function findFrozenEsrs(companyId: string, year: number): Promise<FrozenEsrs | null> {
  const doc = await findFrozenReport(companyId, year);
  if (!doc) return null;
  // Written by freezeEsrsReport above, in this shape.
  const c = doc.content as unknown as {
    generatedAt: string;
    period: { start: string; end: string; timeZone: string; firstMonth: number; months: string[] };
    status: PeriodStatus;
    hours: EsrsReport["hours"];
    datapoints: EsrsRow[];
  };
  return {
    version: doc.version,
    frozenAt: doc.frozenAt,
    frozenBy: doc.frozenBy,
    generatedAt: new Date(c.generatedAt),
    period: { ...c.period, start: new Date(c.period.start), end: new Date(c.period.end) },
    status: c.status,
    hours: c.hours,
    // A report frozen before the rows were tagged keeps what it said (`concept` null, the
    // coverage shares `instant`); it named no member.
    datapoints: c.datapoints.map((row) => ({ ...row, xbrl_member: row.xbrl_member ?? null })),
  };
}

/** The datapoints whose live value differs from the frozen one: a restatement to disclose. */
export function restatement(frozen: readonly EsrsRow[], live: readonly EsrsRow[]): Difference[] {
  const liveById = new Map(live.map((r) => [r.datapoint_id, r.value]));
  return frozen.flatMap((r) => {
    const now = liveById.has(r.datapoint_id) ? (liveById.get(r.datapoint_id) ?? null) : null;
    return now === r.value
      ? []
      : [{ datapoint_id: r.datapoint_id, frozen_value: r.value, live_value: now }];
  });
}

export class NoFrozenReportError extends Error {
  constructor(readonly year: number) {
    super(`no frozen report exists for ${year}`);
    this.name = "NoFrozenReportError";
  }
}

/**
 * What GET /v1/esrs-s1 serves: the frozen version when there is one (unless live is asked for), and
 * the restatement.
 */
export interface ServedEsrs extends Pick<
  FrozenEsrs,
  "period" | "status" | "hours" | "generatedAt" | "datapoints"
> {
  year: number;
  basis: "frozen" | "live";
  frozen: Pick<FrozenEsrs, "version" | "frozenAt" | "frozenBy"> | null;
  restatement: { liveGeneratedAt: Date; differences: Difference[] } | null;
}

/**
 * `basis`: absent = the frozen version if the year has one, else live; `live` = today's figures;
 * `frozen` = the frozen version or NoFrozenReportError. Whenever a frozen version exists, the
 * datapoints whose live value differs are listed (the live report is the cached one: `live`).
 */
export async function servedEsrs(
  companyId: string,
  year: number | undefined,
  basis: "frozen" | "live" | undefined,
  live: (year: number | undefined) => Promise<EsrsFigures>,
): Promise<ServedEsrs> {
  const today = await live(year);
  const frozen = await findFrozenEsrs(companyId, today.year);
  if (basis === "frozen" && !frozen) throw new NoFrozenReportError(today.year);
  const restated = frozen
    ? {
        liveGeneratedAt: today.generatedAt,
        differences: restatement(frozen.datapoints, today.datapoints),
      }
    : null;
  const version = frozen
    ? { version: frozen.version, frozenAt: frozen.frozenAt, frozenBy: frozen.frozenBy }
    : null;
  const served = basis !== "live" && frozen ? frozen : today;
  return {
    year: today.year,
    basis: served === frozen ? "frozen" : "live",
    frozen: version,
    restatement: restated,
    period: served.period,
    status: served.status,
    hours: served.hours,
    generatedAt: served.generatedAt,
    datapoints: served.datapoints,
  };
}
