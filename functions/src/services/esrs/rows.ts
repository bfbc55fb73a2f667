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
import { describePeriod, incompleteNote, type PeriodStatus } from "./periodStatus";
import { published, xbrlOf } from "./publishing";

/**
 * One row of the S1-14 export (JSON and CSV), in datapoint order: the twelve totals, then the
 * breakdowns.
 */
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
  /**
   * `value` as the taxonomy types it: a percentage as a fraction (83.33 → 0.8333), anything else as
   * is.
   */
  xbrl_value: number | string | null;
  /** `pure` for every number (counts, days, rates, fractions); null for text. */
  xbrl_unit: "pure" | null;
  /** XBRL `decimals` of `xbrl_value`; null for text and null values. */
  decimals: number | null;
  period_type: PeriodType;
  /**
   * The breakdown as axis and member (`person_type` / `employee`, `cause` / `ill_health`); null on
   * a total.
   */
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

const figure = (x: number) => x.toLocaleString("en", { maximumFractionDigits: 2 });
const cases = (n: number) => (n === 1 ? "1 case" : `${n} cases`);

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
              detail:
                `Includes ${cases(other)} filed under another type than \`injury\` ` +
                `(accidents by 88 (c), AR 91).`,
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
            reason:
              `${figure(unattributed)} hour${unattributed === 1 ? "" : "s"} of the ` +
              `period ${unattributed === 1 ? "is" : "are"} not attributed to employees ` +
              `or non-employees (app records, API values without \`worker_category\`), ` +
              `so the hours of ${group} are not known.`,
          };
        }
        const part = sum(d.workforce === "employee" ? "employees" : "nonEmployees");
        if (!(part > 0))
          return {
            value: null,
            reason:
              `no worked hours of ${group} are recorded for the ${year} period, so ` +
              `the rate cannot be computed.`,
          };
        return {
          value: published(d.unit, (incidentValue(incidents, d.numerator) * d.per) / part),
          detail: `Hours worked by ${group} in the period: ${figure(part)}.`,
        };
      }
      const [total, app, api] = [sum("total"), sum("app"), sum("api")];
      const detail =
        `Hours worked in the period: ${figure(total)} (app ${figure(app)}, ` +
        `API ${figure(api)}).`;
      // Never a division by zero: no hours is "not computable", not 0 or infinity.
      if (!(total > 0))
        return {
          value: null,
          reason:
            `no worked hours are recorded for the ${year} period, so the rate ` +
            `cannot be computed.`,
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
          reason:
            `the ${HEADCOUNT_LABEL[d.field]} headcount (${figure(part)}) for ` +
            `${year} is not between 0 and the own-workforce headcount ` +
            `(${figure(coverage.headcount)}); the coverage data needs correcting.`,
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

const OMISSION_REASON: Record<Omission, string> = {
  not_collected_legal_restrictions:
    "the undertaking does not collect this data where legal restrictions prevent it " +
    "(marked by the company).",
  voluntary_not_disclosed: "a voluntary datapoint the company has chosen not to disclose.",
};

/**
 * The company's mark for a datapoint (a breakdown row follows its total); voluntary_not_disclosed
 * only on a voluntary one.
 */
function omissionOf(d: Datapoint, omissions: Readonly<Record<string, unknown>>): Omission | null {
  const of = d.breakdown ? DATAPOINTS.find((t) => t.id === d.breakdown?.of) : d;
  const mark = omissions[d.id] ?? (d.breakdown ? omissions[d.breakdown.of] : undefined);
  if (!(OMISSIONS as readonly unknown[]).includes(mark)) return null;
  return mark === "voluntary_not_disclosed" && !(d.voluntary || of?.voluntary)
    ? null
    : (mark as Omission);
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
