import { recordChange } from "../repos/changeRecords";

/**
 * What the change triggers run (docs/firestore-data.md, "Change records"). Exported apart from
 * the triggers so tests can call them; `visibleBefore` matters only for a document that has no
 * record yet (older than the triggers).
 */
export async function recordFindingChange(
  projectId: string,
  findingId: string,
  visibleBefore: boolean,
): Promise<void> {
  await recordChange("finding", projectId, findingId, visibleBefore);
}

export async function recordIncidentChange(
  companyId: string,
  incidentId: string,
  visibleBefore: boolean,
): Promise<void> {
  await recordChange("incident", companyId, incidentId, visibleBefore);
}
