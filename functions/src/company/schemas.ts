import { isoTimestamp, z } from "../http/zod";
import { isReportableYear, MIN_YEAR } from "../lib/months";

/** Shared schema pieces of the company API (snake_case, ISO-8601 UTC). */

export const nullableTimestamp = isoTimestamp.nullable();

export const INCIDENT_STATUSES = [
  "reported",
  "under_investigation",
  "action_required",
  "closed",
] as const;
export const INCIDENT_TYPES = [
  "injury",
  "ill_health",
  "near_miss",
  "dangerous_occurrence",
  "property_damage",
  "environmental",
] as const;
export const PERSON_TYPES = ["employee", "non_employee", "other_worker", "visitor"] as const;

export const incidentSchema = z
  .object({
    id: z.string(),
    reference: z.string().openapi({ example: "INC-2026-0042" }),
    title: z.string(),
    description: z.string(),
    event_date: nullableTimestamp.openapi({ description: "When it happened." }),
    reported_at: nullableTimestamp,
    date_of_death: nullableTimestamp.openapi({
      description:
        "When the person died, where a fatal case records it (dates the death in ESRS S1-14); null otherwise.",
    }),
    status: z
      .enum(INCIDENT_STATUSES)
      .nullable()
      .openapi({ description: "Null when the stored value is none of the four." }),
    type: z.enum(INCIDENT_TYPES).nullable(),
    work_related: z.boolean(),
    recordable: z.boolean(),
    fatality: z.boolean(),
    person_type: z.enum(PERSON_TYPES).nullable().openapi({
      description:
        "`employee` and `non_employee` are the own workforce; `other_worker` a value-chain worker on the company's sites.",
    }),
    days_lost: z.number().int().min(0).nullable().openapi({
      description:
        "Calendar days lost, not counting the day of the incident: a whole number (EFRAG IG 3 types days lost as an integer). A stored negative or fractional value reads as null (and is logged).",
    }),
    location_id: z.string().nullable(),
    department_id: z.string().nullable(),
    reported_by: z.string().nullable().openapi({ description: "User id of the reporter." }),
    reported_by_name: z.string().nullable(),
  })
  .openapi("Incident", {
    description: "An incident record. The reporter's e-mail is never part of it.",
  });
export type Incident = z.infer<typeof incidentSchema>;

/**
 * The year this instance (and so the document it serves, built once per instance) started in:
 * the document's `maximum` for `year`. The code checks against the year of each request, so a
 * document served across New Year is one year stricter than the code, never looser.
 */
const DOCUMENT_YEAR = new Date().getUTCFullYear();

/**
 * `year`: four digits, not in the future (checked per request: it moves with the clock). Absent
 * reads as `undefined`: the handler defaults to the company's reporting period in progress,
 * which depends on its settings (lib/period.ts). `ahead`: years past the current UTC one let
 * through, for endpoints that check the period itself (a zone ahead of UTC starts its year sooner);
 * the document's `maximum` stays the current UTC year (the period check answers the rest).
 */
export const yearParam = (description: string, ahead = 0) =>
  z
    .string()
    .optional()
    .transform((text, ctx): number | undefined => {
      const now = new Date();
      if (text === undefined) return undefined;
      const year = /^\d{4}$/.test(text) ? Number(text) : NaN;
      if (!(
        isReportableYear(year, now) ||
        (year > now.getUTCFullYear() && year <= now.getUTCFullYear() + ahead)
      )) {
        const last = now.getUTCFullYear() + ahead;
        ctx.addIssue({
          code: "custom",
          message: `must be a four-digit year from ${MIN_YEAR} to ${ahead ? `${last} (the current UTC year + ${ahead})` : `the current UTC year (${last})`}`,
        });
        return z.NEVER;
      }
      return year;
    })
    .openapi({
      type: "integer",
      minimum: MIN_YEAR,
      maximum: DOCUMENT_YEAR,
      description: `${description} The \`maximum\` is the current UTC year when this document was generated (it is regenerated at every deploy and instance start); the API checks against the current UTC year of each request.`,
      example: DOCUMENT_YEAR - 1,
    });
