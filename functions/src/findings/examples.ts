import type { Attachment, Comment, Finding, Project } from "./schemas";

/**
 * The examples of the findings export's OpenAPI document, typed by the wire shapes so that tsc
 * keeps them in step with the schemas (and the OpenAPI tests check them against the document).
 */
const PAGE_TOKEN = "v3.Q2hhbmdlTWU.3fJw9kq0XbL1m2N8pA7sYtR4uVz6cE5dH0gI1jK2lM3nO4pQ5rS6tU";

export const PROJECT_EXAMPLE: { data: Project } = {
  data: {
    id: "demo-vessel-a",
    name: "MV Nordic Star",
    company_id: "demo-nordic-shipping",
    customer_project_id: "NS-2026-014",
    status: "In progress",
    is_closed: false,
    date_created: "2026-01-12T08:00:00.000Z",
    current_milestone: "Dry dock",
    project_progress: 0.42,
    findings_counter: 320,
    findings_counter_is_corrected: 0,
    inspections_counter: 18,
    issues_counter: 4,
    vessel: { imo: "9876543", flag: "NO", built: 2011 },
    classification: { society: "DNV", notation: "1A" },
    propulsion: { type: "diesel-electric" },
    survey: { type: "Intermediate survey" },
    claim: {},
    client: { name: "Nordic Shipping AS" },
  },
};

const FINDING: Finding = {
  id: "vessel-a-f0001",
  finding_number: 1,
  title: "Corrosion on main deck railing",
  description: "Surface rust on the starboard railing, frames 40–52.",
  status: "Open",
  previous_status: null,
  priority: "High",
  system: "Deck",
  date_of_finding: "2026-02-03T00:00:00.000Z",
  date_created: "2026-02-03T09:14:22.000Z",
  last_edited_date: "2026-08-04T11:02:10.512Z",
  start_date: null,
  due_date: "2026-03-01T00:00:00.000Z",
  corrective_measure: "Grind, prime and paint.",
  location_details: "Main deck, starboard side",
  location_level_1: "Main deck",
  location_level_2: "Starboard",
  location_level_3: null,
  location_level_4: null,
  location_level_5: null,
  location_lat_lng: { latitude: 59.9139, longitude: 10.7522 },
  numeric_value: null,
  nfc_information: null,
  shipyard_reference: "SY-4411",
  created_by: "u-insp1",
  created_by_name: "Ola Berg",
  created_by_company_name: "Nordic Shipping AS",
  last_edited_by: "u-insp1",
  last_edited_by_name: "Ola Berg",
  last_edited_by_company_name: "Nordic Shipping AS",
  inspection_id: "insp-007",
  project_id: "demo-vessel-a",
  company_id: "demo-nordic-shipping",
  assignee_ids: ["u-std1"],
  checklist: [
    {
      index: 0,
      title: "Remove rust",
      done: true,
      date_created: "2026-02-03T09:15:00.000Z",
      date_closed: "2026-02-10T14:00:00.000Z",
      created_by: "u-insp1",
      created_by_name: "Ola Berg",
    },
    {
      index: 1,
      title: "Paint",
      done: false,
      date_created: "2026-02-03T09:15:30.000Z",
      date_closed: null,
      created_by: "u-insp1",
      created_by_name: "Ola Berg",
    },
  ],
  checklist_total: 2,
  checklist_open: 1,
  last_comment: {
    text: "Primer applied.",
    author_name: "Ola Berg",
    author_id: "u-insp1",
    created_at: "2026-02-10T14:01:00.000Z",
    system_triggered: false,
  },
  has_location_details_image: true,
  marker_count: 1,
};

export const FINDING_PAGE_EXAMPLE: { data: Finding[]; next_page_token: string | null } = {
  data: [FINDING],
  next_page_token: PAGE_TOKEN,
};

const DELTA_TOKEN = "v3.Q2hhbmdlTWU.7dLq1nX4bRt9wC2mF5hJ8kP0sV3yA6eG1iK4oN7qT0uW3zB6dE9h";

/** The last page of a delta: one changed finding, one removed, and the token of the next delta. */
export const FINDING_DELTA_EXAMPLE: {
  data: Array<Finding | { id: string; removed: { reason: "hidden" | "deleted"; at: string } }>;
  next_page_token: string | null;
  delta_token: string | null;
} = {
  data: [
    FINDING,
    { id: "vessel-a-f0007", removed: { reason: "deleted", at: "2026-03-02T10:15:03.221Z" } },
  ],
  next_page_token: null,
  delta_token: DELTA_TOKEN,
};

const COMMENT: Comment = {
  id: "c-0001",
  finding_id: "vessel-a-f0001",
  text: "Primer applied.",
  created_at: "2026-02-10T14:01:00.000Z",
  author_id: "u-insp1",
  author_name: "Ola Berg",
  system_triggered: false,
  has_image: true,
  has_audio: false,
  has_video: false,
  has_file: false,
  file_name: null,
};

export const COMMENT_PAGE_EXAMPLE: { data: Comment[]; next_page_token: string | null } = {
  data: [COMMENT],
  next_page_token: null,
};

const ATTACHMENT: Attachment = {
  id: "file-0001",
  source: "findings_file",
  comment_id: null,
  title: "Railing, starboard",
  description_short: null,
  description_long: null,
  file_name: "railing.jpg",
  content_kind: "image",
  custom_index: 0,
  folder_path: null,
  blur_hash: "LKO2?U%2Tw=w]~RBVZRi};RPxuwH",
  excluded_from_reports: false,
  captured_at: "2026-02-03T09:10:00.000Z",
  uploaded_at: "2026-02-03T09:16:40.000Z",
  uploaded_by: "u-insp1",
  uploaded_by_name: "Ola Berg",
  uploaded_by_company_name: "Nordic Shipping AS",
  download_url:
    "https://storage.googleapis.com/demo-bucket/projects/demo-vessel-a/railing.jpg" +
    "?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=900&X-Goog-Signature=…",
  download_url_expires_at: "2026-08-04T11:17:10.000Z",
  download_error: null,
  content_url:
    "https://europe-west1-demo-project.cloudfunctions.net/findingsApi" +
    "/v1/findings/vessel-a-f0001/attachments/file.file-0001/content",
};

export const ATTACHMENT_LIST_EXAMPLE: {
  data: Attachment[];
  finding_id: string;
  truncated: boolean;
} = {
  data: [
    ATTACHMENT,
    {
      ...ATTACHMENT,
      id: null,
      source: "comment",
      comment_id: "c-0002",
      title: null,
      file_name: null,
      custom_index: null,
      download_url: null,
      download_url_expires_at: null,
      download_error: "foreign_bucket",
      content_url:
        "https://europe-west1-demo-project.cloudfunctions.net/findingsApi" +
        "/v1/findings/vessel-a-f0001/attachments/comment.c-0002.0/content",
    },
  ],
  finding_id: "vessel-a-f0001",
  truncated: false,
};
