import { jsonObject, z } from "../http/zod";

/** Shared schema pieces of the findings export (snake_case, ISO-8601 UTC). */
export const isoTimestamp = z.string().openapi({ format: "date-time", example: "2026-03-01T08:30:00.000Z" });
export const nullableTimestamp = isoTimestamp.nullable();

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    company_id: z.string().nullable(),
    customer_project_id: z.string().nullable(),
    status: z.string().nullable().openapi({ description: "Free text." }),
    is_closed: z.boolean(),
    date_created: nullableTimestamp,
    current_milestone: z.string().nullable(),
    project_progress: z.number().nullable(),
    findings_counter: z.number().nullable(),
    findings_counter_is_corrected: z.number().nullable(),
    inspections_counter: z.number().nullable(),
    issues_counter: z.number().nullable(),
    vessel: jsonObject().openapi({ description: "Free-form vessel identity details, exported as stored." }),
    classification: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    propulsion: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    survey: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    claim: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    client: jsonObject().openapi({ description: "Free-form, exported as stored." }),
  })
  .openapi("Project", {
    description: "The vessel. An allow-list: budget, hours spent, drawings and internal notes are never part of it.",
  });
export type Project = z.infer<typeof projectSchema>;
