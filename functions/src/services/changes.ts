import { recordChange } from "../repos/changeRecords";
import { isHiddenValue } from "../repos/stored";

/**
 * What the change triggers run (docs/firestore-data.md, "Change records"). Exported apart from
 * the triggers so tests can call them. `before`, the event's before-image of the finding or
 * incident itself (none for a comment or file), matters only for a document that has no record
 * yet (older than the triggers): whether it was visible before this change.
 */
export interface BeforeImage {
  exists: boolean;
  get(field: string): unknown;
}

const wasVisible = (before?: BeforeImage) =>
  !!before?.exists && !isHiddenValue(before.get("hidden"));

export async function recordFindingChange(
  projectId: string,
  findingId: string,
  before?: BeforeImage,
): Promise<void> {
  await recordChange("finding", projectId, findingId, wasVisible(before));
}

export async function recordIncidentChange(
  companyId: string,
  incidentId: string,
  before?: BeforeImage,
): Promise<void> {
  await recordChange("incident", companyId, incidentId, wasVisible(before));
}
