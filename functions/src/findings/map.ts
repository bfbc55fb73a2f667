import { toIso } from "../lib/dates";
import { oneOf } from "../lib/oneOf";
import type { CommentDoc, FindingDoc } from "../repos/findingDocs";
import { STATUS_VALUES, type Comment, type Finding } from "./schemas";

/** Stored camelCase → exported snake_case. Private fields are never read here. */

export function toFinding(doc: FindingDoc): Finding {
  // `index` is the item's position in the stored list; an unreadable item leaves a gap.
  const checklist = doc.checklist.flatMap((item, index) =>
    item
      ? [
          {
            index,
            title: item.title,
            done: item.done,
            date_created: toIso(item.dateCreated),
            date_closed: toIso(item.dateClosed),
            created_by: item.createdBy,
            created_by_name: item.createdByName,
          },
        ]
      : [],
  );
  const last = doc.lastComment;
  return {
    id: doc.id,
    finding_number: doc.findingNumber,
    title: doc.title,
    description: doc.description,
    status: oneOf(STATUS_VALUES, doc.status),
    previous_status: doc.previousStatus,
    priority: doc.priority,
    system: doc.system,
    date_of_finding: toIso(doc.dateOfFinding),
    date_created: toIso(doc.dateCreated),
    last_edited_date: toIso(doc.lastEditedDate),
    start_date: toIso(doc.startDate),
    due_date: toIso(doc.dueDate),
    corrective_measure: doc.correctiveMeasure,
    location_details: doc.locationDetails,
    location_level_1: doc.locationLevel1,
    location_level_2: doc.locationLevel2,
    location_level_3: doc.locationLevel3,
    location_level_4: doc.locationLevel4,
    location_level_5: doc.locationLevel5,
    location_lat_lng: doc.locationLatLng
      ? { latitude: doc.locationLatLng.latitude, longitude: doc.locationLatLng.longitude }
      : null,
    numeric_value: doc.numericValue,
    nfc_information: doc.nfcInformation,
    shipyard_reference: doc.shipyardReference,
    created_by: doc.createdBy,
    created_by_name: doc.createdByName,
    created_by_company_name: doc.createdByCompanyName,
    last_edited_by: doc.lastEditedBy,
    last_edited_by_name: doc.lastEditedByName,
    last_edited_by_company_name: doc.lastEditedByCompanyName,
    inspection_id: doc.inspectionId,
    project_id: doc.projectId,
    company_id: doc.companyId,
    assignee_ids: doc.assigneeIds,
    checklist,
    checklist_total: checklist.length,
    checklist_open: checklist.filter((item) => !item.done).length,
    last_comment: last
      ? {
          text: last.text,
          author_name: last.authorName,
          author_id: last.authorId,
          created_at: toIso(last.createdAt),
          system_triggered: last.systemTriggered,
        }
      : null,
    has_location_details_image: doc.locationDetailsImage !== null,
    marker_count: doc.markers.filter((marker) => marker !== null).length,
  };
}

export function toComment(doc: CommentDoc, findingId: string): Comment {
  const kinds = new Set(doc.media.map((m) => m.kind));
  return {
    id: doc.id,
    finding_id: findingId,
    text: doc.text,
    created_at: toIso(doc.createdAt),
    author_id: doc.authorId,
    author_name: doc.authorName,
    system_triggered: doc.systemTriggered,
    has_image: kinds.has("image"),
    has_audio: kinds.has("audio"),
    has_video: kinds.has("video"),
    has_file: kinds.has("file"),
    file_name: doc.media.find((m) => m.kind === "file")?.fileName ?? null,
  };
}
