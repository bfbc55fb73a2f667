import { taggingOf } from "../services/esrs/publishing";
import type { GetEsrsS1Response } from "./esrsWire";
import type { AuditEntry, Incident, KpiRollup } from "./schemas";
import type { User } from "./users/wire";

/**
 * The examples of the company API's OpenAPI document, typed by the wire shapes so that tsc
 * keeps them in step with the schemas (and the OpenAPI tests check them against the document).
 */
const PAGE_TOKEN = "v3.Q2hhbmdlTWU.9sKq2mV0aLp3xN7bY1cR5dT8eW4fZ6gH2iJ0kL1mN3oP5qR7sT9uV";

export const INCIDENT_PAGE_EXAMPLE: { data: Incident[]; next_page_token: string | null } = {
  data: [
    {
      id: "inc-0042",
      reference: "INC-2026-0042",
      title: "Slip on wet deck",
      description: "Crew member slipped while mooring; sprained ankle.",
      event_date: "2026-03-14T06:40:00.000Z",
      reported_at: "2026-03-14T09:05:12.000Z",
      date_of_death: null,
      status: "closed",
      type: "injury",
      work_related: true,
      recordable: true,
      fatality: false,
      person_type: "employee",
      days_lost: 3,
      location_id: "loc-vessel-a",
      department_id: "dep-deck",
      reported_by: "u-mgr1",
      reported_by_name: "Kari Nilsen",
    },
  ],
  next_page_token: PAGE_TOKEN,
};

/** The last page of a delta: one changed incident, one hidden, and the token of the next delta. */
export const INCIDENT_DELTA_EXAMPLE: {
  data: Array<Incident | { id: string; removed: { reason: "hidden" | "deleted"; at: string } }>;
  next_page_token: string | null;
  delta_token: string | null;
} = {
  data: [
    { ...INCIDENT_PAGE_EXAMPLE.data[0], status: "closed" },
    { id: "inc-0040", removed: { reason: "hidden", at: "2026-03-15T07:02:41.508Z" } },
  ],
  next_page_token: null,
  delta_token: "v3.Q2hhbmdlTWU.4hTz8mQ1cV6wB3nK0pS7xD2fG5jL9rU1yE4iO7aH0kN3qW6tZ9bC",
};

const MONTHS = Array.from(
  { length: 24 },
  (_, i) => `${2024 + Math.floor((11 + i) / 12)}-${String(((11 + i) % 12) + 1).padStart(2, "0")}`,
);
const byMonth = (perMonth: number) =>
  Object.fromEntries(MONTHS.map((m, i) => [m, (perMonth * (i + 3)) % 7]));
const area = (total: number, byStatus: Record<string, number>) => ({
  total,
  by_month: byMonth(total % 5),
  by_status: byStatus,
});

export const KPIS_EXAMPLE: { data: KpiRollup } = {
  data: {
    generated_at: "2026-11-20T02:30:04.118Z",
    months: MONTHS,
    areas: {
      incidents: {
        ...area(61, { closed: 40, reported: 12, under_investigation: 6, action_required: 3 }),
        by_type: { injury: 25, near_miss: 30, ill_health: 6 },
      },
      findings: area(320, { Open: 110, Closed: 190, "To be reviewed": 20 }),
      inspections: area(48, { completed: 44, planned: 4 }),
      assets: area(212, { active: 200, retired: 12 }),
      risk_assessments: area(37, { approved: 30, draft: 7 }),
      locations: area(9, {}),
      worked_hours: {
        total: 299_520,
        by_month: Object.fromEntries(MONTHS.map((m) => [m, 12_480])),
        by_source: { app: 274_560, api: 24_960 },
      },
    },
  },
};

export const ESRS_EXAMPLE: GetEsrsS1Response = {
  data: {
    company_id: "demo-nordic-shipping",
    year: 2025,
    period: {
      start: "2025-01-01T00:00:00.000Z",
      end: "2026-01-01T00:00:00.000Z",
      time_zone: "UTC",
      first_month: 1,
      months: Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, "0")}`),
      complete: true,
      in_progress: false,
      months_without_hours: [],
    },
    worked_hours: {
      total: 149_760,
      app: 137_280,
      api: 12_480,
      employees: 0,
      non_employees: 12_480,
      unattributed: 137_280,
    },
    basis: "frozen",
    frozen: {
      version: 1,
      frozen_at: "2026-02-10T09:30:00.000Z",
      frozen_by: { type: "user", id: "u-owner1", name: "Kari Nilsen" },
    },
    restatement: {
      live_generated_at: "2026-11-20T10:12:45.301Z",
      differences: [{ datapoint_id: "S1-14_07", frozen_value: 41, live_value: 44 }],
    },
    generated_at: "2026-02-10T09:30:00.000Z",
    datapoints: [
      {
        datapoint_id: "S1-14_05",
        esrs_paragraph: "ESRS S1 88 (c)",
        name: "rate_of_recordable_work_related_accidents",
        value: 33.39,
        unit: "per_million_hours",
        note:
          "Recordable work-related accidents per 1,000,000 hours worked, 2025-01-01 " +
          "to 2025-12-31 (UTC).",
        breakdown: null,
        ...taggingOf("S1-14_05"),
        xbrl_value: 33.39,
        xbrl_unit: "pure",
        decimals: 2,
        period_type: "duration",
        axis: null,
        member: null,
        voluntary: false,
        omission: null,
      },
      {
        datapoint_id: "S1-14_02.employee",
        esrs_paragraph: "ESRS S1 88 (b)",
        name: "work_related_fatalities",
        value: 0,
        unit: "count",
        note: "Deaths of employees as a result of work-related injuries and ill health.",
        breakdown: { of: "S1-14_02", by: "person_type", member: "employee" },
        ...taggingOf("S1-14_02.employee"),
        xbrl_value: 0,
        xbrl_unit: "pure",
        decimals: 0,
        period_type: "duration",
        axis: "person_type",
        member: "employee",
        voluntary: false,
        omission: null,
      },
    ],
  },
};

export const AUDIT_PAGE_EXAMPLE: { data: AuditEntry[]; next_page_token: string | null } = {
  data: [
    {
      id: "al-7f3c",
      at: "2026-11-20T10:12:45.301Z",
      class: "operational",
      action: "api.request",
      actor: { type: "api_key", id: "csa_DemoComp", name: "BI export" },
      api: "company",
      method: "GET",
      path: "/v1/incidents",
      status: 200,
      request_id: "req_6f1c2a9be04d4d0f9a3c81e5b7d20c44",
      client_request_id: null,
      count: 1,
      project_id: null,
      target: null,
    },
  ],
  next_page_token: null,
};

export const USER_EXAMPLE: User = {
  id: "Xq3b9TtM2hV0sLkP7wZr",
  email: "nina.holm@example.com",
  display_name: "Nina Holm",
  given_name: "Nina",
  family_name: "Holm",
  department: "HSE",
  department_id: "dep-hse",
  role: "standard",
  status: "invited",
  external_id: null,
  provisioned_by: "api",
  created_at: "2026-11-20T10:12:45.301Z",
  updated_at: "2026-11-20T10:12:45.301Z",
  deactivated_at: null,
};

export const NEW_USER_EXAMPLE = {
  email: "nina.holm@example.com",
  display_name: "Nina Holm",
  department: "HSE",
};
export const USER_UPDATE_EXAMPLE = { active: false };
export const WORKED_HOURS_INPUT_EXAMPLE = { month: "2026-10", hours: 12480.5 };
export const WORKED_HOURS_RECORD_EXAMPLE = {
  data: {
    month: "2026-10",
    hours: 12480.5,
    source: "api" as const,
    worker_category: null,
    updated_at: "2026-11-02T07:00:00.000Z",
  },
};
export const WORKED_HOURS_YEAR_EXAMPLE = {
  data: {
    year: 2025,
    months: Array.from({ length: 12 }, (_, i) => ({
      month: `2025-${String(i + 1).padStart(2, "0")}`,
      app_hours: 11_440,
      api_hours: 1_040,
      total_hours: 12_480,
      by_worker_category: { employees: 0, non_employees: 1_040, unattributed: 11_440 },
    })),
  },
};
