import type { ReportingSettings } from "../../src/lib/period";
import type { IncidentFacts } from "../../src/services/esrs/evaluate";

/**
 * The ESRS S1-14 test fixture: test/unit/esrs*.test.ts work every datapoint out by hand from it,
 * and test/emulator/esrs.test.ts seeds it into Firestore and compares the aggregation queries.
 * Read the comments as the hand calculation's inputs: where each incident falls, and why.
 */
export const YEAR = 2025;
/** Calendar year in Berlin: 2024-12-31T23:00Z to 2025-12-31T23:00Z. */
export const BERLIN: ReportingSettings = { timeZone: "Europe/Berlin", firstMonth: 1 };
/** Financial year from April in London (BST): 2025-03-31T23:00Z to 2026-03-31T23:00Z. */
export const APRIL_LONDON: ReportingSettings = { timeZone: "Europe/London", firstMonth: 4 };

/** An incident; reported at its event date unless `reportedAt` says otherwise. */
export const inc = (
  personType: string | null,
  type: string,
  iso: string,
  daysLost: number,
  extra: Partial<IncidentFacts> = {},
): IncidentFacts => ({
  eventDate: new Date(iso),
  reportedAt: new Date(iso),
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
  /* 2 */ inc("employee", "injury", "2025-06-01T12:00:00Z", 2, { fatality: true }), // a death is also an accident
  /* 3 */ inc("employee", "ill_health", "2025-01-01T00:10:00Z", 10, {
    reportedAt: new Date("2025-01-02T09:00:00Z"),
  }),
  /* 4 */ inc("employee", "injury", "2024-12-31T23:30:00Z", 7), // 00:30 on 1 January in Berlin: 2025 there, 2024 in UTC
  /* 5 */ inc("non_employee", "injury", "2025-12-31T23:30:00Z", 3), // 00:30 on 1 January 2026 in Berlin: 2025 only in UTC
  /* 6 */ inc("employee", "injury", "2025-12-31T22:30:00Z", 4), // 23:30 on 31 December in Berlin: 2025 everywhere
  /* 7 */ inc("employee", "injury", "2025-05-05T00:00:00Z", 20, { fatality: true, hidden: true }), // hidden: never counts
  /* 8 */ inc("employee", "injury", "2025-04-04T00:00:00Z", 1, { hidden: false }), // explicitly not hidden: counts
  /* 9 */ inc("employee", "injury", "2025-02-02T00:00:00Z", 6, { workRelated: false }),
  /* 10 */ inc("employee", "injury", "2025-02-03T00:00:00Z", 1, { recordable: false }), // not recordable, not fatal: out
  /* 11 */ inc("employee", "dangerous_occurrence", "2025-07-07T00:00:00Z", 11), // recordable under another type: an accident (88 (c))
  /* 12 */ inc("non_employee", "injury", "2025-08-08T00:00:00Z", 8),
  /* 13 */ inc("non_employee", "ill_health", "2025-09-09T00:00:00Z", 9, {
    reportedAt: new Date("2025-09-10T00:00:00Z"),
  }),
  /* 14 */ inc("non_employee", "ill_health", "2025-10-10T00:00:00Z", 0, { fatality: true }), // an ill-health death
  /* 15 */ inc("other_worker", "injury", "2025-11-11T00:00:00Z", 0, { fatality: true }),
  /* 16 */ inc("other_worker", "injury", "2025-11-12T00:00:00Z", 12), // other workers: only deaths are reported
  /* 17 */ inc("visitor", "injury", "2025-03-03T00:00:00Z", 30, { fatality: true }), // never counted
  /* 18 */ inc(null, "injury", "2025-03-04T00:00:00Z", 5), // no person type: never counted
  /* 19 */ inc("employee", "injury", "2025-09-01T00:00:00Z", 0, {
    fatality: true,
    recordable: false,
  }), // a death is recordable
  /* 20 */ inc("non_employee", "dangerous_occurrence", "2025-10-01T00:00:00Z", 0, {
    fatality: true,
  }), // an injury death
  /* 21 */ inc("employee", "ill_health", "2023-06-01T00:00:00Z", 14, {
    reportedAt: new Date("2025-02-15T10:00:00Z"),
  }), // onset 2023, reported 2025
  /* 22 */ inc("employee", "ill_health", "2025-03-01T00:00:00Z", 3, {
    reportedAt: new Date("2026-01-15T10:00:00Z"),
  }), // reported 2026
  /* 23 */ inc("employee", "injury", "2025-06-15T00:00:00Z", 9, { hidden: "true" }), // hidden as text: hidden
  /* 24 */ inc("employee", "injury", "2025-06-16T00:00:00Z", 2, { hidden: null }), // null: shown
  /* 25 */ inc("employee", "ill_health", "2025-04-20T00:00:00Z", 0, {
    fatality: true,
    recordable: false,
    reportedAt: new Date("2025-04-21T00:00:00Z"),
  }),
  /* 26 */ inc("employee", "injury", "2025-03-31T23:30:00Z", 6), // 00:30 on 1 April in London: the April year 2025
  /* 27 */ inc("employee", "injury", "2025-03-31T22:30:00Z", 1), // 23:30 on 31 March in London: the April year 2024
  /* 28 */ inc("employee", "ill_health", "2023-03-01T00:00:00Z", 0, {
    fatality: true,
    reportedAt: new Date("2023-05-01T00:00:00Z"),
    dateOfDeath: new Date("2025-02-10T00:00:00Z"),
  }), // a 2023 case, a 2025 death
  /* 29 */ inc("employee", "injury", "2025-05-05T10:00:00Z", -3), // negative days: an accident that adds no days
  /* 30 */ inc("employee", "injury", "2025-05-06T10:00:00Z", 2.5), // fractional days: the same
];

/** Worked-hours documents as stored (id, month, hours, source; `null` source = field absent). */
export const HOURS_DOCS: Array<
  [id: string, month: unknown, hours: unknown, source: "app" | "api" | null]
> = [
  ...Array.from({ length: 12 }, (_, i): [string, string, number, "app"] => [
    `app-2025-${i + 1}`,
    `2025-${String(i + 1).padStart(2, "0")}`,
    100_000,
    "app",
  ]),
  ["api_2025-06", "2025-06", 1_500_000, "api"], // above the old cap of 1,000,000 a month
  ["legacy-2025-07", "2025-07", 20_000, null], // no source: the app's
  ["bad-2025-05-15", "2025-05-15", 999, "app"], // not a month: in no month, no year
  ["bad-hours", "2025-08", "lots", "app"], // not a number: nothing
  ["app-2024-12", "2024-12", 50_000, "app"], // the year before
  ["api_2026-01", "2026-01", 40_000, "api"], // the year after
];
/** 2025's hours: 12 × 100,000 (app) + 1,500,000 (API) + 20,000 (app, no source). */
export const HOURS_2025 = {
  total: 2_720_000,
  app: 1_220_000,
  api: 1_500_000,
  employees: 0,
  non_employees: 0,
  unattributed: 2_720_000,
};
