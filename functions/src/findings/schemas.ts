import { isoTimestamp, jsonObject, z } from "../http/zod";

/** Shared schema pieces of the findings export (snake_case, ISO-8601 UTC). */
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
    vessel: jsonObject().openapi({
      description: "Free-form vessel identity details, exported as stored.",
    }),
    classification: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    propulsion: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    survey: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    claim: jsonObject().openapi({ description: "Free-form, exported as stored." }),
    client: jsonObject().openapi({ description: "Free-form, exported as stored." }),
  })
  .openapi("Project", {
    description:
      "The vessel. An allow-list: budget, hours spent, drawings and internal notes are " +
      "never part of it.",
  });
export type Project = z.infer<typeof projectSchema>;

export const STATUS_VALUES = [
  "Open",
  "To be reviewed",
  "Closed",
  "Accepted as is",
  "Cancelled",
  "Shipyard confirmed rectification",
] as const;

const checklistItemSchema = z
  .object({
    index: z
      .number()
      .int()
      .openapi({
        description:
          "Position in the finding's checklist; stable only while the list is not " +
          "reordered. Correlate on it, do not key on it.",
      }),
    title: z.string(),
    done: z.boolean(),
    date_created: nullableTimestamp,
    date_closed: nullableTimestamp,
    created_by: z.string().nullable(),
    created_by_name: z.string().nullable(),
  })
  .openapi("ChecklistItem");

const lastCommentSchema = z
  .object({
    text: z.string(),
    author_name: z.string().nullable(),
    author_id: z.string().nullable(),
    created_at: nullableTimestamp,
    system_triggered: z.boolean(),
  })
  .nullable()
  .openapi({ description: "Summary of the newest comment (no e-mail, no avatar)." });

const nullableText = z.string().nullable();

export const findingSchema = z
  .object({
    id: z.string(),
    finding_number: z.number().int().nullable(),
    title: z.string(),
    description: z.string(),
    status: z
      .enum(STATUS_VALUES)
      .nullable()
      .openapi({ description: "One of the six status values, or null." }),
    previous_status: nullableText,
    priority: nullableText.openapi({ description: "Free text." }),
    system: nullableText.openapi({ description: "Free text, e.g. a vessel system name." }),
    date_of_finding: nullableTimestamp,
    date_created: nullableTimestamp,
    last_edited_date: nullableTimestamp.openapi({
      description: "Written on every save, including creation.",
    }),
    start_date: nullableTimestamp,
    due_date: nullableTimestamp,
    corrective_measure: z.string(),
    location_details: z.string(),
    location_level_1: nullableText,
    location_level_2: nullableText,
    location_level_3: nullableText,
    location_level_4: nullableText,
    location_level_5: nullableText,
    location_lat_lng: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    numeric_value: z.number().nullable(),
    nfc_information: nullableText,
    shipyard_reference: nullableText,
    created_by: nullableText,
    created_by_name: nullableText,
    created_by_company_name: nullableText,
    last_edited_by: nullableText,
    last_edited_by_name: nullableText,
    last_edited_by_company_name: nullableText,
    inspection_id: nullableText,
    project_id: nullableText,
    company_id: nullableText,
    assignee_ids: z.array(z.string()),
    checklist: z.array(checklistItemSchema),
    checklist_total: z.number().int(),
    checklist_open: z.number().int(),
    last_comment: lastCommentSchema,
    has_location_details_image: z.boolean(),
    marker_count: z.number().int(),
  })
  .openapi("Finding");
export type Finding = z.infer<typeof findingSchema>;

export const commentSchema = z
  .object({
    id: z.string(),
    finding_id: z.string(),
    text: z.string(),
    created_at: nullableTimestamp,
    author_id: nullableText,
    author_name: nullableText,
    system_triggered: z
      .boolean()
      .openapi({ description: "True for entries the app writes itself, e.g. status changes." }),
    has_image: z.boolean(),
    has_audio: z.boolean(),
    has_video: z.boolean(),
    has_file: z.boolean(),
    file_name: nullableText.openapi({ description: "Name of the comment's first `file` entry." }),
  })
  .openapi("Comment");
export type Comment = z.infer<typeof commentSchema>;

export const attachmentSchema = z
  .object({
    id: nullableText.openapi({
      description: "Id of the finding's file record; null for location image and comment rows.",
    }),
    source: z.enum(["location_details_image", "findings_file", "comment"]),
    comment_id: nullableText,
    title: nullableText,
    description_short: nullableText,
    description_long: nullableText,
    file_name: nullableText,
    content_kind: z.enum(["image", "video", "audio", "file"]),
    custom_index: z.number().int().nullable(),
    folder_path: nullableText,
    blur_hash: nullableText,
    excluded_from_reports: z.boolean(),
    captured_at: nullableTimestamp,
    uploaded_at: nullableTimestamp,
    uploaded_by: nullableText,
    uploaded_by_name: nullableText,
    uploaded_by_company_name: nullableText,
    download_url: z.string().nullable().openapi({
      description: "V4 signed link, valid 15 minutes; null when it could not be signed.",
    }),
    download_url_expires_at: nullableTimestamp,
    download_error: z
      .enum(["unrecognized_storage_reference", "foreign_bucket", "signing_failed"])
      .nullable(),
    content_url: z.string().openapi({
      description:
        "Absolute URL of this API " +
        "(`…/v1/findings/{id}/attachments/{attachment_id}/content`) that answers " +
        "`302` to a freshly signed 15-minute link for this one object. Send your key as " +
        "for any request; " +
        "it counts like any request. Use it when `download_url` has expired instead of " +
        "listing again.",
    }),
  })
  .openapi("Attachment");
export type Attachment = z.infer<typeof attachmentSchema>;

/** The `{id}` of the finding routes. */
export const findingIdParams = z.object({
  id: z.string().openapi({ description: "Finding id." }),
});

export const FINDING_NOT_FOUND = "No such finding in this key's project.";
