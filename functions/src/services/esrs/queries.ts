import type { Filter } from "../../repos/aggregates";
import { incidentsMatchingAny, type IncidentDoc } from "../../repos/incidents";
import type { IncidentFacts, Window } from "./evaluate";

/**
 * Reading the incidents an S1-14 figure can be made of: every case (evaluate.ts, `s1Case`) is
 * work-related and recordable or fatal, and is dated in the period by its event date, its report
 * date or its date of death. So five queries (equality on `true` and one date range each) return
 * every case of the period, and a few incidents of other periods (a case reported in the period but
 * dated by its event date elsewhere), which the evaluator leaves out. Reads grow with the
 * period's cases, not with all incidents: near misses and first-aid cases are never read.
 * Reading the documents, rather than counting them with aggregations, lets the evaluator check
 * each `daysLost` and name the incidents behind every figure (a frozen report keeps them).
 */
const WORK_RELATED: Filter = ["workRelated", "==", true];
const RECORDABLE: Filter = ["recordable", "==", true];
const FATAL: Filter = ["fatality", "==", true];
type DateField = "eventDate" | "reportedAt" | "dateOfDeath";

const range = (field: DateField, { start, end }: Window): Filter[] => [
  [field, ">=", start],
  [field, "<", end],
];

/** The filter sets, each one query; together a superset of the period's cases. */
export function caseQueries(period: Window): Filter[][] {
  return [
    [WORK_RELATED, RECORDABLE, ...range("eventDate", period)],
    [WORK_RELATED, RECORDABLE, ...range("reportedAt", period)],
    [WORK_RELATED, FATAL, ...range("eventDate", period)],
    [WORK_RELATED, FATAL, ...range("reportedAt", period)],
    [WORK_RELATED, FATAL, ...range("dateOfDeath", period)],
  ];
}

export const toFacts = (doc: IncidentDoc): IncidentFacts => ({
  id: doc.id,
  eventDate: doc.eventDate?.toDate() ?? null,
  reportedAt: doc.reportedAt?.toDate() ?? null,
  dateOfDeath: doc.dateOfDeath?.toDate() ?? null,
  type: doc.type,
  personType: doc.personType,
  workRelated: doc.workRelated,
  recordable: doc.recordable,
  fatality: doc.fatality,
  daysLost: doc.daysLost,
  hidden: doc.hidden,
});

export type ReadIncidentsFn = typeof incidentsMatchingAny;

/** The period's candidate cases, as the evaluator reads them. */
export async function readCases(
  companyId: string,
  period: Window,
  read: ReadIncidentsFn = incidentsMatchingAny,
): Promise<IncidentFacts[]> {
  return (await read(companyId, caseQueries(period))).map(toFacts);
}
