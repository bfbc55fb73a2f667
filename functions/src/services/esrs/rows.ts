import type { ReportingPeriod } from "../../lib/period";
import {
  DATAPOINTS,
  OMISSIONS,
  type BreakdownOf,
  type Datapoint,
  type Omission,
  type PeriodType,
  type Unit,
} from "./datapoints";
import { outcomeOf, type EsrsInputs } from "./outcomes";
import { describePeriod, incompleteNote, type PeriodStatus } from "./periodStatus";
import { taggingOf, xbrlOf, type XbrlMember } from "./publishing";

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
  /** The ESRS XBRL taxonomy element (publishing.ts); null for S1-14_12, which has none. */
  concept: string | null;
  /** The member of `esrs:EmployeesAndNonemployeesAxis` the fact takes, or null. */
  xbrl_member: XbrlMember | null;
  /**
   * `value` as the taxonomy types it: a percentage as a fraction (83.33 → 0.8333), anything else as
   * is.
   */
  xbrl_value: number | string | null;
  /** `pure` for every number (counts, days, rates, fractions); null for text. */
  xbrl_unit: "pure" | null;
  /** XBRL `decimals` of `xbrl_value`; null for text and null values. */
  decimals: number | null;
  /** `duration` (every S1-14 element); a report frozen before the tagging may say `instant`. */
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
      ...taggingOf(d.id),
      ...xbrlOf(d.unit, value),
      period_type: "duration",
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
