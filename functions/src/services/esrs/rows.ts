import { monthKey } from "../../lib/months";
import type { ReportingPeriod } from "../../lib/period";
import type { CoverageDoc } from "../../repos/coverage";
import type { MonthHours } from "../workedHours";
import {
  DATAPOINTS,
  OMISSIONS,
  type BreakdownOf,
  type Datapoint,
  type Omission,
  type PeriodType,
  type Unit,
} from "./datapoints";
import type { Basis, IncidentValues } from "./evaluate";

/** One row of the S1-14 export (JSON and CSV), in datapoint order: the twelve totals, then the breakdowns. */
export interface EsrsRow {
  datapoint_id: string;
  esrs_paragraph: string;
  name: string;
  /** A number (a text for S1-14_11), or null with the reason in `note`. */
  value: number | string | null;
  unit: Unit;
  note: string;
  /** Null on a total row; on a breakdown row, the total it is part of and by what. */
  breakdown: BreakdownOf | null;
  /**
   * The ESRS XBRL taxonomy element. Null throughout: its names could not be verified against the
   * taxonomy's published files (docs/company-api.md), and a guessed name would mis-tag a report.
   */
  concept: string | null;
  /** `value` as the taxonomy types it: a percentage as a fraction (83.33 → 0.8333), anything else as is. */
  xbrl_value: number | string | null;
  /** `pure` for every number (counts, days, rates, fractions); null for text. */
  xbrl_unit: "pure" | null;
  /** XBRL `decimals` of `xbrl_value`; null for text and null values. */
  decimals: number | null;
  period_type: PeriodType;
  /** The breakdown as axis and member (`person_type` / `employee`, `cause` / `ill_health`); null on a total. */
  axis: BreakdownOf["by"] | null;
  member: BreakdownOf["member"] | null;
  /** May be disclosed (¶89, AR 94), not must. */
  voluntary: boolean;
  /** Why the company does not disclose it (`esrsOmissions`), or null. */
  omission: Omission | null;
}

export interface EsrsInputs {
  incidents: IncidentValues;
  /** The company's marks, as stored (absent: none); unknown ids and values are ignored. */
  omissions?: Readonly<Record<string, unknown>>;
  /** The incidents behind each incident value (absent: no details in the notes). */
  basis?: Record<string, Basis>;
  /** The period's twelve months, by source. */
  hours: readonly MonthHours[];
  coverage: CoverageDoc | null;
}

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

/**
 * `x` rounded half away from zero to `decimals` places on its decimal form: 15 significant digits
 * first, so that a quotient such as 1.00499999999999989… (the double nearest 1.005) rounds to 1.01,
 * where `Math.round(1.005 * 100) / 100` gives 1.
 */
export function roundHalfUp(x: number, decimals: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const [mantissa, exponent] = Math.abs(x).toPrecision(15).includes("e")
    ? Math.abs(x).toPrecision(15).split("e")
    : [Math.abs(x).toPrecision(15), "0"];
  const shifted = Math.round(Number(`${mantissa}e${Number(exponent) + decimals}`));
  return Math.sign(x) * Number(`${shifted}e${-decimals}`);
}

/**
 * The decimals a value is published with (its XBRL `decimals`): counts and days are whole numbers;
 * percentages two decimals; rates two decimals, or three significant digits when below 1, so a
 * small rate is never shown as 0. Null for text.
 */
export function decimalsOf(unit: Unit, value: number | null): number | null {
  if (unit === "text") return null;
  if (unit === "count" || unit === "days") return 0;
  if (unit === "per_million_hours" && value !== null && value !== 0 && Math.abs(value) < 1)
    return Math.max(2, 2 - Math.floor(Math.log10(Math.abs(value))));
  return 2;
}

const published = (unit: Unit, x: number): number => roundHalfUp(x, decimalsOf(unit, x) ?? 0);
const figure = (x: number) => x.toLocaleString("en", { maximumFractionDigits: 2 });
const cases = (n: number) => (n === 1 ? "1 case" : `${n} cases`);

/** "1 April 2025 to 31 March 2026 (Europe/Berlin)", as local calendar dates. */
export function describePeriod(p: ReportingPeriod): string {
  const first = `${monthKey(p.year, p.firstMonth - 1)}-01`;
  const lastDay = new Date(Date.UTC(p.year, p.firstMonth - 1 + 12, 0));
  const last = `${monthKey(lastDay.getUTCFullYear(), lastDay.getUTCMonth())}-${String(lastDay.getUTCDate()).padStart(2, "0")}`;
  return `${first} to ${last} (${p.timeZone})`;
}

interface Outcome {
  value: number | string | null;
  /** Why the value is null. */
  reason?: string;
  /** Figures behind the value. */
  detail?: string;
}

const HEADCOUNT_LABEL = {
  coveredHeadcount: "covered",
  auditedHeadcount: "audited or certified",
} as const;

function incidentValue(values: IncidentValues, id: string): number {
  const value = values[id];
  if (value === undefined) throw new Error(`ESRS datapoint ${id} was not evaluated`);
  return value;
}

function outcomeOf(
  d: Datapoint,
  year: number,
  { incidents, basis, hours, coverage }: EsrsInputs,
): Outcome {
  const noCoverage = {
    value: null,
    reason: `no health and safety coverage data is recorded for ${year}.`,
  };
  switch (d.source) {
    case "incidents": {
      const other = basis?.[d.id]?.filedAsOtherType ?? 0;
      return {
        value: incidentValue(incidents, d.id),
        ...(other
          ? {
              detail: `Includes ${cases(other)} filed under another type than \`injury\` (accidents by 88 (c), AR 91).`,
            }
          : {}),
      };
    }
    case "rate": {
      const sum = (k: "total" | "app" | "api" | "employees" | "nonEmployees" | "unattributed") =>
        hours.reduce((total, m) => total + m[k], 0);
      if (d.workforce) {
        const group = d.workforce === "employee" ? "employees" : "non-employees";
        const unattributed = sum("unattributed");
        if (unattributed > 0) {
          return {
            value: null,
            reason: `${figure(unattributed)} hour${unattributed === 1 ? "" : "s"} of the period ${unattributed === 1 ? "is" : "are"} not attributed to employees or non-employees (app records, API values without \`worker_category\`), so the hours of ${group} are not known.`,
          };
        }
        const part = sum(d.workforce === "employee" ? "employees" : "nonEmployees");
        if (!(part > 0))
          return {
            value: null,
            reason: `no worked hours of ${group} are recorded for the ${year} period, so the rate cannot be computed.`,
          };
        return {
          value: published(d.unit, (incidentValue(incidents, d.numerator) * d.per) / part),
          detail: `Hours worked by ${group} in the period: ${figure(part)}.`,
        };
      }
      const [total, app, api] = [sum("total"), sum("app"), sum("api")];
      const detail = `Hours worked in the period: ${figure(total)} (app ${figure(app)}, API ${figure(api)}).`;
      // Never a division by zero: no hours is "not computable", not 0 or infinity.
      if (!(total > 0))
        return {
          value: null,
          reason: `no worked hours are recorded for the ${year} period, so the rate cannot be computed.`,
        };
      return {
        value: published(d.unit, (incidentValue(incidents, d.numerator) * d.per) / total),
        detail,
      };
    }
    case "coverage": {
      if (!coverage) return noCoverage;
      if (coverage.headcount === null || coverage.headcount <= 0)
        return {
          value: null,
          reason: `the own-workforce headcount for ${year} is missing or zero.`,
        };
      const part = coverage[d.field];
      if (part === null)
        return {
          value: null,
          reason: `the ${HEADCOUNT_LABEL[d.field]} headcount for ${year} is not recorded.`,
        };
      if (part < 0 || part > coverage.headcount) {
        return {
          value: null,
          reason: `the ${HEADCOUNT_LABEL[d.field]} headcount (${figure(part)}) for ${year} is not between 0 and the own-workforce headcount (${figure(coverage.headcount)}); the coverage data needs correcting.`,
        };
      }
      return { value: published(d.unit, (part * 100) / coverage.headcount) };
    }
    case "not_collected":
      return {
        value: null,
        reason: "the app does not collect the data for this voluntary datapoint.",
      };
    case "standards": {
      if (!coverage) return noCoverage;
      const standards = [
        ...new Set(coverage.certificationStandards.map((s) => s.trim()).filter(Boolean)),
      ];
      if (!standards.length)
        return { value: null, reason: `no certification standards are recorded for ${year}.` };
      return { value: standards.join(", ") };
    }
  }
}

function incompleteNote(period: ReportingPeriod, status: PeriodStatus): string {
  const why = [
    ...(status.inProgress ? ["it has not ended yet (year to date)"] : []),
    ...(status.monthsWithoutHours.length
      ? [`no worked hours are recorded for ${status.monthsWithoutHours.join(", ")}`]
      : []),
  ];
  return `Incomplete period ${describePeriod(period)}: ${why.join("; ")}.`;
}

const OMISSION_REASON: Record<Omission, string> = {
  not_collected_legal_restrictions:
    "the undertaking does not collect this data where legal restrictions prevent it (marked by the company).",
  voluntary_not_disclosed: "a voluntary datapoint the company has chosen not to disclose.",
};

/** The company's mark for a datapoint (a breakdown row follows its total); voluntary_not_disclosed only on a voluntary one. */
function omissionOf(d: Datapoint, omissions: Readonly<Record<string, unknown>>): Omission | null {
  const of = d.breakdown ? DATAPOINTS.find((t) => t.id === d.breakdown?.of) : d;
  const mark = omissions[d.id] ?? (d.breakdown ? omissions[d.breakdown.of] : undefined);
  if (!(OMISSIONS as readonly unknown[]).includes(mark)) return null;
  return mark === "voluntary_not_disclosed" && !(d.voluntary || of?.voluntary)
    ? null
    : (mark as Omission);
}

/** `value` as the taxonomy types it, and its decimals. */
function xbrlOf(
  unit: Unit,
  value: number | string | null,
): Pick<EsrsRow, "xbrl_value" | "xbrl_unit" | "decimals"> {
  if (typeof value !== "number")
    return { xbrl_value: value, xbrl_unit: unit === "text" ? null : "pure", decimals: null };
  const decimals = decimalsOf(unit, value) ?? 0;
  return unit === "percent"
    ? {
        xbrl_value: roundHalfUp(value / 100, decimals + 2),
        xbrl_unit: "pure",
        decimals: decimals + 2,
      }
    : { xbrl_value: value, xbrl_unit: "pure", decimals };
}

/** The rows, totals first then breakdowns: pure, from already-read inputs. */
export function buildRows(
  period: ReportingPeriod,
  inputs: EsrsInputs,
  status: PeriodStatus,
): EsrsRow[] {
  return DATAPOINTS.map((d) => {
    const omission = omissionOf(d, inputs.omissions ?? {});
    const computed = outcomeOf(d, period.year, inputs);
    const { value, reason, detail } = omission
      ? { value: null, reason: OMISSION_REASON[omission], detail: undefined }
      : computed;
    const periodic = d.source === "incidents" || d.source === "rate";
    const note = [
      d.methodology,
      ...(periodic ? [`Period: ${describePeriod(period)}.`] : []),
      ...(detail ? [detail] : []),
      ...(periodic && !status.complete ? [incompleteNote(period, status)] : []),
      ...(reason ? [`Not reported: ${reason}`] : []),
    ].join(" ");
    const breakdown = d.breakdown ?? null;
    return {
      datapoint_id: d.id,
      esrs_paragraph: d.paragraph,
      name: d.name,
      value,
      unit: d.unit,
      note,
      breakdown,
      concept: null,
      ...xbrlOf(d.unit, value),
      period_type: d.periodType ?? "duration",
      axis: breakdown?.by ?? null,
      member: breakdown?.member ?? null,
      voluntary:
        d.voluntary === true ||
        (breakdown !== null &&
          DATAPOINTS.some((t) => t.id === breakdown.of && t.voluntary === true)),
      omission,
    };
  });
}
