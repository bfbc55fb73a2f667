import { ApiError } from "../http/errors";
import { defineRoute, Reply } from "../http/route";
import { isoTimestamp, z } from "../http/zod";
import { toIso } from "../lib/dates";
import { isPastOrCurrentMonth, MONTH_PATTERN } from "../lib/months";
import { periodYearAt, reportingPeriod } from "../lib/period";
import { findReportingSettings } from "../repos/companies";
import {
  hoursBetween,
  OtherHoursKindError,
  setApiHours,
  WORKER_CATEGORIES,
} from "../repos/hoursRecords";
import { hoursByMonth } from "../services/workedHours";
import {
  WORKED_HOURS_INPUT_EXAMPLE,
  WORKED_HOURS_RECORD_EXAMPLE,
  WORKED_HOURS_YEAR_EXAMPLE,
} from "./examples";
import { yearParam } from "./schemas";

/**
 * Monthly worked hours: the API's own value per month (POST), and every source per month (GET).
 * The cap only catches typos: a billion hours is a month of several million full-time people.
 */
const MAX_HOURS = 1_000_000_000;

const recordSchema = z
  .object({
    month: z.string().openapi({ example: "2026-10" }),
    hours: z.number(),
    source: z.literal("api"),
    worker_category: z
      .enum(WORKER_CATEGORIES)
      .nullable()
      .openapi({ description: "The group the hours are of; null: the whole own workforce." }),
    updated_at: isoTimestamp,
  })
  .openapi("WorkedHoursRecord");

const body = z
  .object({
    month: z
      .string({
        error: (issue) => (issue.input === undefined ? "is required" : "must be a string YYYY-MM"),
      })
      .refine((m) => isPastOrCurrentMonth(m), {
        message: "must be a month YYYY-MM (01 to 12) that is not in the future (UTC)",
      })
      .openapi({
        pattern: MONTH_PATTERN,
        example: "2026-10",
        description:
          "The month, `YYYY-MM` (year 1900 or later); not in the future (UTC): the " +
          "current month at the latest.",
      }),
    hours: z
      .number({ message: "must be a number" })
      .finite()
      .min(0, `must be from 0 to ${MAX_HOURS.toLocaleString("en")}`)
      .max(MAX_HOURS, `must be from 0 to ${MAX_HOURS.toLocaleString("en")}`)
      .openapi({
        example: 12480.5,
        description:
          "Hours worked in that month by the company's own workforce, employees and " +
          "non-employees alike (ESRS S1 AR 89: the accident rate " +
          "divides by the own workforce's hours, and its accidents include " +
          "non-employees'), or by the group `worker_category` names; 0 to 1,000,000,000.",
      }),
    worker_category: z
      .enum(WORKER_CATEGORIES, { message: 'must be "employees" or "non_employees"' })
      .optional()
      .openapi({
        description:
          "`employees` or `non_employees`: the hours are that group's, stored beside the " +
          "other group's and summed with it (the ESRS rate is then also " +
          "given per group). Absent: the whole own workforce, as before. A month's hours " +
          "are the sum of all its values, so a month holds either one value without a " +
          "category or one per group, never both: the other kind with hours above 0 is 409 " +
          "`conflict` (send it 0 first to switch).",
      }),
  })
  .strict()
  .openapi("WorkedHoursInput");

/** A month holds one kind of API hours: the 409 says which is stored and how to switch. */
function otherKind(err: unknown): unknown {
  if (!(err instanceof OtherHoursKindError)) return err;
  const { month, stored } = err;
  const held =
    stored === "whole"
      ? "the whole own workforce's hours (sent without worker_category)"
      : `hours per worker_category (${stored.join(", ")})`;
  const reset =
    stored === "whole"
      ? `{"month":"${month}","hours":0}`
      : stored.map((c) => `{"month":"${month}","hours":0,"worker_category":"${c}"}`).join(" and ");
  return new ApiError(
    "conflict",
    `The month ${month} already holds ${held}; a month holds either one value without a ` +
      `worker_category or one per category, never both (the hours would be counted twice). ` +
      `To switch, first send ${reset}.`,
  );
}

export const postWorkedHours = defineRoute({
  method: "post",
  path: "/v1/worked-hours",
  operationId: "setWorkedHours",
  summary: "Set a month's worked hours (the API's value)",
  description:
    "Stores the month as the API's value (`source: api`), replacing any earlier API " +
    "value for that month; hours recorded in " +
    "the app are never changed. 201 the first time, 200 on a replace, with the stored " +
    "record. Audited as `worked_hours.set`. 409 `conflict` when the month holds API hours of " +
    "the other kind (with or without `worker_category`).",
  tags: ["Provisioning"],
  scope: "provisioning",
  // Run again after a stopped first try: the same month's value again (200, replaced).
  idempotency: {},
  body,
  bodyExample: WORKED_HOURS_INPUT_EXAMPLE,
  success: {
    status: 201,
    description: "The month's API value, stored for the first time.",
    otherStatuses: { 200: "The month's API value, replacing the earlier one." },
    schema: z.object({ data: recordSchema }),
    example: WORKED_HOURS_RECORD_EXAMPLE,
  },
  errors: ["invalid_request", "conflict", "payload_too_large", "unsupported_media_type"],
  handler: async ({ body: input, principal, origin }) => {
    const { companyId } = principal;
    const { record, replaced } = await setApiHours(
      companyId,
      input.month,
      input.hours,
      input.worker_category ?? null,
      origin,
    ).catch((err: unknown) => Promise.reject(otherKind(err)));
    const data = {
      month: record.month,
      hours: record.hours,
      source: "api" as const,
      worker_category: record.workerCategory,
      updated_at: toIso(record.updatedAt) ?? "",
    };
    return new Reply({ data }, { status: replaced ? 200 : 201 });
  },
});

const monthSchema = z
  .object({
    month: z.string().openapi({ example: "2026-10" }),
    app_hours: z
      .number()
      .openapi({ description: "Hours recorded in the app for the month, all its records summed." }),
    api_hours: z.number().openapi({
      description: "The month's API values, all categories summed (0 when none was sent).",
    }),
    total_hours: z.number(),
    by_worker_category: z
      .object({ employees: z.number(), non_employees: z.number(), unattributed: z.number() })
      .openapi({
        description:
          "`total_hours` split by the API values' `worker_category`; `unattributed`: " +
          "hours of no category (all app records, and API values sent without one).",
      }),
  })
  .openapi("WorkedHoursMonth");

export const getWorkedHours = defineRoute({
  method: "get",
  path: "/v1/worked-hours",
  operationId: "getWorkedHours",
  summary: "A reporting year's worked hours per month, by source",
  description:
    "Each of the twelve months of the company's reporting period (its financial year: " +
    "with one starting in April, `year=2025` is " +
    "2025-04 to 2026-03) with the app's hours, the API's value and their total (zero " +
    "when nothing is recorded). Their sum is the hours " +
    "the ESRS S1-14 rate of the same year divides by.",
  tags: ["Provisioning"],
  scope: "read",
  query: z
    .object({
      year: yearParam(
        "The reporting period, named by the calendar year it starts in; four digits, not " +
          "after the current UTC year. Default: the period in progress.",
      ),
    })
    .strict(),
  success: {
    description: "The year's months.",
    schema: z.object({ data: z.object({ year: z.number().int(), months: z.array(monthSchema) }) }),
    example: WORKED_HOURS_YEAR_EXAMPLE,
  },
  errors: ["invalid_request"],
  handler: async ({ query, principal }) => {
    const { companyId } = principal;
    const settings = await findReportingSettings(companyId);
    const { year, months } = reportingPeriod(
      query.year ?? periodYearAt(new Date(), settings),
      settings,
    );
    const records = await hoursBetween(companyId, months[0], months[11]);
    const perMonth = hoursByMonth(months, records).map((m) => ({
      month: m.month,
      app_hours: m.app,
      api_hours: m.api,
      total_hours: m.total,
      by_worker_category: {
        employees: m.employees,
        non_employees: m.nonEmployees,
        unattributed: m.unattributed,
      },
    }));
    return { data: { year, months: perMonth } };
  },
});
