import { isoTimestamp, z } from "../http/zod";
import { KEY_APIS } from "../lib/apiKeyFormat";
import { isReportableYear, MIN_YEAR } from "../lib/months";
import { MONTHS } from "../services/kpiRollup";

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
        "When the person died, where a fatal case records it (dates the death in ESRS " +
        "S1-14); null otherwise.",
    }),
    status: z
      .enum(INCIDENT_STATUSES)
      .nullable()
      .openapi({ description: "Null when the stored value is none of the four." }),
    type: z.enum(INCIDENT_TYPES).nullable(),
    work_related: z.boolean(),
    recordable: z.boolean(),
    fatality: z.boolean(),
    person_type: z
      .enum(PERSON_TYPES)
      .nullable()
      .openapi({
        description:
          "`employee` and `non_employee` are the own workforce; `other_worker` a " +
          "value-chain worker on the company's sites.",
      }),
    days_lost: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({
        description:
          "Calendar days lost, not counting the day of the incident: a whole number (EFRAG " +
          "IG 3 types days lost as an integer). A stored negative or fractional value " +
          "reads as null (and is logged).",
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
        const upTo = ahead
          ? `${last} (the current UTC year + ${ahead})`
          : `the current UTC year (${last})`;
        ctx.addIssue({
          code: "custom",
          message: `must be a four-digit year from ${MIN_YEAR} to ${upTo}`,
        });
        return z.NEVER;
      }
      return year;
    })
    .openapi({
      type: "integer",
      minimum: MIN_YEAR,
      maximum: DOCUMENT_YEAR,
      description:
        `${description} The \`maximum\` is the current UTC year when this ` +
        `document was generated (it is regenerated at every deploy and instance start); ` +
        `the API checks against the current UTC year of each request.`,
      example: DOCUMENT_YEAR - 1,
    });

export const AUDIT_CLASSES = ["privileged", "operational"] as const;

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: isoTimestamp,
    class: z.enum(AUDIT_CLASSES).openapi({
      description:
        "`privileged`: key and access changes, provisioning, anything done with the " +
        "provisioning scope (kept 2 years). `operational`: reads (kept 90 days).",
    }),
    action: z.string().openapi({
      example: "api.request",
      description:
        "`api.request`, `api.refused` (refused requests, aggregated), `api_key.created`, " +
        "`api_key.revoked`, `api_access.changed`, `rate_limits.changed`, …",
    }),
    actor: z
      .object({
        type: z.enum(["api_key", "user", "system"]),
        id: z.string().nullable().openapi({
          description:
            "A key's 12-character prefix (never the key or its hash), a user id, or the operator.",
        }),
        name: z.string().nullable(),
      })
      .openapi("AuditActor"),
    api: z.enum(KEY_APIS).nullable(),
    method: z.string().nullable(),
    path: z
      .string()
      .nullable()
      .openapi({
        description:
          "The path routed on (no query or fragment): at most 512 characters, a longer one cut " +
          "and ended with `…` (entries written before this rule may hold a longer one).",
      }),
    status: z.number().int().nullable(),
    request_id: z.string().nullable().openapi({
      description: "The id the API gave the request (`X-Request-Id` of its response).",
    }),
    client_request_id: z
      .string()
      .nullable()
      .openapi({ description: "The caller's own `X-Request-Id`, when it sent a usable one." }),
    count: z
      .number()
      .int()
      .min(1)
      .openapi({
        description:
          "How many requests the entry stands for: 1, except `api.refused` entries (all " +
          "refusals of one key with one status in one UTC minute).",
      }),
    project_id: z.string().nullable(),
    target: z.object({ type: z.string(), id: z.string() }).nullable().openapi({
      description:
        "What a change concerns, e.g. `{ type: api_key, id: <prefix> }`; null for plain requests.",
    }),
  })
  .openapi("AuditEntry");
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const counts = (description: string) => z.record(z.string(), z.number()).openapi({ description });
const byMonth = counts(
  `The ${MONTHS} most recent UTC months up to and including the month of ` +
    `\`generated_at\`, oldest first, zero-filled: \`"YYYY-MM": number\`.`,
);

// Generic in its extra fields, so that the response type knows `by_type` of the incidents area.
const area = <E extends z.ZodRawShape>(name: string, extra: E = {} as E) =>
  z
    .object({
      total: z.number().int().openapi({ description: "All records of the area, of any date." }),
      by_month: byMonth,
      by_status: counts("Records per status value present (values with no record are left out)."),
      ...extra,
    })
    .openapi(name);

const areaSchema = area("KpiArea");
export const rollupSchema = z
  .object({
    generated_at: isoTimestamp.openapi({
      description: "When the rollup was computed; it is refreshed daily.",
    }),
    months: z.array(z.string()).openapi({
      description: `The ${MONTHS} month keys, oldest first.`,
      example: ["2024-12", "…", "2026-11"],
    }),
    areas: z.object({
      incidents: area("KpiIncidentArea", {
        by_type: counts("Incidents per type present."),
      }).openapi({
        description:
          "By event date (UTC months); hidden incidents never count (the same incidents " +
          "as `GET /v1/incidents`).",
      }),
      findings: areaSchema.openapi({ description: "Actions, by creation date." }),
      inspections: areaSchema,
      assets: areaSchema,
      risk_assessments: areaSchema,
      locations: areaSchema,
      worked_hours: z
        .object({
          total: z.number().openapi({
            description:
              "Hours of every record with numeric hours, all sources (a record whose " +
              "`month` is not a `YYYY-MM` key counts here, in no month).",
          }),
          by_month: byMonth.openapi({
            description:
              "Hours per month, app and API sources summed; zero-filled. A year's months " +
              "add up to `GET /v1/worked-hours` and the ESRS hours of that year.",
          }),
          by_source: z.object({ app: z.number(), api: z.number() }).openapi({
            description:
              "Hours per source, all months: `api` the API's values, `app` every other " +
              "record (one without `source` included), so app + api = total.",
          }),
        })
        .openapi("KpiWorkedHours"),
    }),
  })
  .openapi("KpiRollup");
export type KpiRollup = z.infer<typeof rollupSchema>;
