import type { CoverageDoc } from "../../repos/coverage";
import type { MonthHours } from "../workedHours";
import type { Datapoint } from "./datapoints";
import type { Basis, IncidentValues } from "./evaluate";
import { published } from "./publishing";

/** What a datapoint's value is made of: the period's incident values, hours and coverage. */
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

export interface Outcome {
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

export function outcomeOf(
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
