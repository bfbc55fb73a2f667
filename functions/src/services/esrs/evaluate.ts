import type { ReportingPeriod } from "../../lib/period";
import { isHiddenValue } from "../../repos/stored";
import { incidentDatapoints, type CaseKind, type IncidentSelection } from "./datapoints";

/**
 * What an incident counts as in S1-14, stated directly, and the evaluator built on it: the
 * readable meaning of every incident datapoint. Production reads only the incidents that can be
 * cases (queries.ts) and evaluates them here; the tests check that the reading misses none.
 */

/** Datapoint id → count or sum, for the datapoints whose source is `incidents`. */
export type IncidentValues = Record<string, number>;

export type Window = Pick<ReportingPeriod, "start" | "end">;

/**
 * An incident as the contract stores it (companies/{c}/incidents), the fields the datapoints read,
 * as the repo reads them.
 */
export interface IncidentFacts {
  /** The document id (absent in fixtures that do not need it). */
  id?: string;
  eventDate: Date | null;
  reportedAt: Date | null;
  /** When the person died (may be absent): dates a death; absent = the case's own date. */
  dateOfDeath?: Date | null;
  type: string | null;
  personType: string | null;
  workRelated: boolean;
  recordable: boolean;
  fatality: boolean;
  /**
   * Whole days (IG 3: an integer); anything else is not added (the repo reads it as null and logs
   * it).
   */
  daysLost: number | null;
  /** As stored (absent on most documents): see `isHiddenValue`. */
  hidden?: unknown;
}

export interface S1Case {
  kind: CaseKind;
  fatal: boolean;
  /** The date the case belongs to a period by. */
  date: Date | null;
  /** The date a death belongs to a period by (null when not fatal or undated). */
  deathDate: Date | null;
  /** Filed under a type other than `injury` or `ill_health` (counted as an injury all the same). */
  otherType: boolean;
}

/**
 * - Hidden and not work-related incidents never count.
 * - A case is a recordable incident (the contract: harm to a person) or a death, whatever its
 *   `recordable` flag. Filed as `ill_health` it is ill health; under any other type (or none) a
 *   work-related accident (88 (c), AR 91): a recordable `dangerous_occurrence` with days lost is
 *   an injury, whether fatal or not.
 * - Injuries are dated by `eventDate`; ill health by `reportedAt`, when it was notified (AR 94).
 * - A death is dated by `dateOfDeath` when recorded, else by the case's date.
 */
export function s1Case(i: IncidentFacts): S1Case | null {
  if (isHiddenValue(i.hidden) || !i.workRelated || !(i.recordable || i.fatality)) return null;
  const kind: CaseKind = i.type === "ill_health" ? "ill_health" : "injury";
  const date = kind === "ill_health" ? i.reportedAt : i.eventDate;
  return {
    kind,
    fatal: i.fatality,
    date,
    deathDate: i.fatality ? (i.dateOfDeath ?? date) : null,
    otherType: kind === "injury" && i.type !== "injury",
  };
}

export const inWindow = (date: Date | null, { start, end }: Window) =>
  date !== null && date.getTime() >= start.getTime() && date.getTime() < end.getTime();

/** Days lost as IG 3 types them: a whole number of at least 0; anything else adds nothing. */
export const validDays = (value: unknown): number =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;

export function selects(select: IncidentSelection, period: Window) {
  return (i: IncidentFacts): boolean => {
    const c = s1Case(i);
    return (
      c !== null &&
      inWindow(select.fatalOnly ? c.deathDate : c.date, period) &&
      (select.personTypes as readonly string[]).includes(i.personType ?? "") &&
      select.kinds.includes(c.kind) &&
      (!select.fatalOnly || c.fatal)
    );
  };
}

/**
 * What a datapoint's value is made of: the incidents counted (ids), and how many were filed under
 * another type.
 */
export interface Basis {
  incidents: string[];
  filedAsOtherType: number;
}

export interface Evaluation {
  values: IncidentValues;
  basis: Record<string, Basis>;
}

/** Every incident datapoint over a list, with the incidents behind each value. */
export function evaluateCases(incidents: readonly IncidentFacts[], period: Window): Evaluation {
  const values: IncidentValues = {};
  const basis: Record<string, Basis> = {};
  for (const d of incidentDatapoints()) {
    const matching = incidents.filter(selects(d.select, period));
    values[d.id] =
      d.select.measure === "count"
        ? matching.length
        : matching.reduce((total, i) => total + validDays(i.daysLost), 0);
    basis[d.id] = {
      incidents: matching.flatMap((i) => i.id ?? []),
      filedAsOtherType: matching.filter((i) => s1Case(i)?.otherType).length,
    };
  }
  return { values, basis };
}
