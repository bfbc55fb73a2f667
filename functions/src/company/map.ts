import { toIso } from "../lib/dates";
import { oneOf } from "../lib/oneOf";
import type { IncidentDoc } from "../repos/incidents";
import { INCIDENT_STATUSES, INCIDENT_TYPES, PERSON_TYPES, type Incident } from "./schemas";

/** Stored camelCase → exported snake_case; the reporter's e-mail is never read. */
export function toIncident(doc: IncidentDoc): Incident {
  return {
    id: doc.id,
    reference: doc.reference,
    title: doc.title,
    description: doc.description,
    event_date: toIso(doc.eventDate),
    reported_at: toIso(doc.reportedAt),
    date_of_death: toIso(doc.dateOfDeath),
    status: oneOf(INCIDENT_STATUSES, doc.status),
    type: oneOf(INCIDENT_TYPES, doc.type),
    work_related: doc.workRelated,
    recordable: doc.recordable,
    fatality: doc.fatality,
    person_type: oneOf(PERSON_TYPES, doc.personType),
    days_lost: doc.daysLost,
    location_id: doc.locationId,
    department_id: doc.departmentId,
    reported_by: doc.reportedBy,
    reported_by_name: doc.reportedByName,
  };
}
