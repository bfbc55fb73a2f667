import type { IncidentFacts } from "../services/esrs/evaluate";

/**
 * The ESRS S1-14 test fixture: test/unit/esrs.test.ts works every datapoint out by hand from it,
 * and test/emulator/esrs.test.ts seeds it into Firestore and compares the aggregation queries.
 */
export const YEAR = 2025;
export const inc = (personType: string | null, type: string, iso: string, daysLost: number, extra: Partial<IncidentFacts> = {}): IncidentFacts => ({
  eventDate: new Date(iso),
  type,
  personType,
  workRelated: true,
  recordable: true,
  fatality: false,
  daysLost,
  ...extra,
});

export const FIXTURE: IncidentFacts[] = [
  /* 1 */ inc("employee", "injury", "2025-03-10T08:00:00Z", 5),
  /* 2 */ inc("employee", "injury", "2025-06-01T12:00:00Z", 2, { fatality: true }), // a fatality is also an accident
  /* 3 */ inc("employee", "ill_health", "2025-01-01T00:10:00Z", 10), // first minutes of the year: in
  /* 4 */ inc("employee", "injury", "2024-12-31T23:30:00Z", 7), // last minutes of the year before: out
  /* 5 */ inc("employee", "injury", "2025-12-31T23:30:00Z", 3), // last minutes of the year: in
  /* 6 */ inc("employee", "injury", "2026-01-01T00:10:00Z", 4), // first minutes of the next year: out
  /* 7 */ inc("employee", "injury", "2025-05-05T00:00:00Z", 20, { fatality: true, hidden: true }), // hidden: never counts
  /* 8 */ inc("employee", "injury", "2025-04-04T00:00:00Z", 1, { hidden: false }), // explicitly not hidden: counts
  /* 9 */ inc("employee", "injury", "2025-02-02T00:00:00Z", 6, { workRelated: false }),
  /* 10 */ inc("employee", "injury", "2025-02-03T00:00:00Z", 1, { recordable: false }),
  /* 11 */ inc("employee", "dangerous_occurrence", "2025-07-07T00:00:00Z", 11), // neither an accident nor ill health
  /* 12 */ inc("non_employee", "injury", "2025-08-08T00:00:00Z", 8),
  /* 13 */ inc("non_employee", "ill_health", "2025-09-09T00:00:00Z", 9),
  /* 14 */ inc("non_employee", "ill_health", "2025-10-10T00:00:00Z", 0, { fatality: true }),
  /* 15 */ inc("other_worker", "injury", "2025-11-11T00:00:00Z", 0, { fatality: true }),
  /* 16 */ inc("other_worker", "injury", "2025-11-12T00:00:00Z", 12), // other workers: only fatalities are reported
  /* 17 */ inc("visitor", "injury", "2025-03-03T00:00:00Z", 30, { fatality: true }), // never counted
  /* 18 */ inc(null, "injury", "2025-03-04T00:00:00Z", 5), // no person type: never counted
];
