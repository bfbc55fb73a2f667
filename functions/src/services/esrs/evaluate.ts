import type { ReportingPeriod } from "../../lib/period";
import { isHiddenValue } from "../../repos/incidents";
import { incidentDatapoints, type CaseKind, type IncidentSelection } from "./datapoints";

/**
 * What an incident counts as in S1-14, stated directly, and the in-memory evaluator built on
 * it: the readable meaning of every incident datapoint. The production evaluator (queries.ts)
 * must give the same numbers; the unit and emulator tests compare the two.
 */

/** Datapoint id → count or sum, for the datapoints whose source is `incidents`. */
export type IncidentValues = Record<string, number>;

export type Window = Pick<ReportingPeriod, "start" | "end">;

/** An incident as the contract stores it (companies/{c}/incidents), the fields the datapoints read, as the repo reads them. */
export interface IncidentFacts {
  eventDate: Date | null;
  reportedAt: Date | null;
  type: string | null;
  personType: string | null;
  workRelated: boolean;
  recordable: boolean;
  fatality: boolean;
  daysLost: number | null;
  /** As stored (absent on most documents): see `isHiddenValue`. */
  hidden?: unknown;
}

export interface S1Case {
  kind: CaseKind;
  fatal: boolean;
  /** The date the case belongs to a period by. */
  date: Date | null;
}

/**
 * - Hidden and not work-related incidents never count.
 * - A death is recordable by definition, whatever the `recordable` flag; a fatal incident filed
 *   as `ill_health` is an ill-health death, under any other type an injury death (AR 82, AR 91).
 * - Otherwise only recordable incidents filed as `injury` or `ill_health` are cases.
 * - Injuries are dated by `eventDate`; ill health by `reportedAt`, when it was notified (AR 94).
 */
export function s1Case(i: IncidentFacts): S1Case | null {
  if (isHiddenValue(i.hidden) || !i.workRelated) return null;
  const kind: CaseKind | null = i.type === "ill_health" ? "ill_health" : i.fatality || i.type === "injury" ? "injury" : null;
  if (!kind || !(i.recordable || i.fatality)) return null;
  return { kind, fatal: i.fatality, date: kind === "ill_health" ? i.reportedAt : i.eventDate };
}

export const inWindow = (date: Date | null, { start, end }: Window) => date !== null && date.getTime() >= start.getTime() && date.getTime() < end.getTime();

export function selects(select: IncidentSelection, period: Window) {
  return (i: IncidentFacts): boolean => {
    const c = s1Case(i);
    return (
      c !== null &&
      inWindow(c.date, period) &&
      (select.personTypes as readonly string[]).includes(i.personType ?? "") &&
      select.kinds.includes(c.kind) &&
      (!select.fatalOnly || c.fatal)
    );
  };
}

/** Every incident datapoint over a list. */
export function evaluateInMemory(incidents: readonly IncidentFacts[], period: Window): IncidentValues {
  return Object.fromEntries(
    incidentDatapoints().map((d) => {
      const matching = incidents.filter(selects(d.select, period));
      // Firestore's sum skips documents whose field is not a number: so does this.
      const value = d.select.measure === "count" ? matching.length : matching.reduce((total, i) => total + (typeof i.daysLost === "number" ? i.daysLost : 0), 0);
      return [d.id, value];
    }),
  );
}
