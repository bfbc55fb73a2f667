import { onDocumentWritten } from "firebase-functions/v2/firestore";
import { rematchOptions, triggerOptions } from "../config/runtime";
import { loadOrExit } from "../lib/lazy";
import { jobFinished } from "../logs";

/**
 * A department created or renamed gives itself to the users whose provider sent its name before it
 * existed (`unmatchedDepartment`): docs/scim-connector.md, "Departments".
 */
export const departmentRematch = onDocumentWritten(
  { ...rematchOptions, document: "companies/{companyId}/departments/{departmentId}" },
  async (event) => {
    const { nameToRematch, rematchDepartment } = await loadOrExit(
      () => import("../services/departmentRematch"),
    );
    const name = nameToRematch(event.data?.before.data(), event.data?.after.data());
    if (name === null) return;
    const { companyId, departmentId } = event.params;
    const users = await rematchDepartment(companyId, { id: departmentId, name });
    jobFinished("department.rematch", { companyId, departmentId, users });
  },
);

/**
 * A change of the company's role map (or of who owns roles) reaches its provisioned users: their
 * stored provider value is mapped again (docs/scim-connector.md: "A role map changed later
 * reaches existing users"); a change of its group map reaches the members of its SCIM groups.
 * Every other write of the company (`seatsUsed` moves with each invitation) returns at once.
 */
export const roleRematch = onDocumentWritten(
  { ...rematchOptions, document: "companies/{companyId}" },
  async (event) => {
    // Both loaded before any write: a failed load fails the event before half its work.
    const [{ rematchRoles, roleSettingsChanged, groupMapChanged }, { rematchGroups }] =
      await Promise.all([
        loadOrExit(() => import("../services/roleRematch")),
        loadOrExit(() => import("../services/groupSweep")),
      ]);
    const [before, after] = [event.data?.before.data(), event.data?.after.data()];
    const [roles, groups] = [roleSettingsChanged(before, after), groupMapChanged(before, after)];
    if (!roles && !groups) return;
    const { companyId } = event.params;
    const users = roles ? await rematchRoles(companyId) : 0;
    // After the role map: a role a group gives wins over it.
    const pages = groups ? await rematchGroups(companyId) : 0;
    jobFinished("role.rematch", { companyId, users, pages });
  },
);

/**
 * The change records behind the delta endpoints (docs/firestore-data.md, "Change records"): a
 * write of a finding, of one of its comments or files, or of an incident records the server time
 * and the state of its finding or incident. Each run reads the current state, never the event's.
 */
const changes = () => loadOrExit(() => import("../services/changes"));
const findingDocument = "projects/{projectId}/findings/{findingId}";

export const onFindingWritten = onDocumentWritten(
  { ...triggerOptions, document: findingDocument },
  async (event) =>
    (await changes()).recordFindingChange(
      event.params.projectId,
      event.params.findingId,
      event.data?.before,
    ),
);
export const onFindingCommentWritten = onDocumentWritten(
  { ...triggerOptions, document: `${findingDocument}/comments/{commentId}` },
  async (event) =>
    (await changes()).recordFindingChange(event.params.projectId, event.params.findingId),
);
export const onFindingFileWritten = onDocumentWritten(
  { ...triggerOptions, document: `${findingDocument}/files/{fileId}` },
  async (event) =>
    (await changes()).recordFindingChange(event.params.projectId, event.params.findingId),
);
export const onIncidentWritten = onDocumentWritten(
  { ...triggerOptions, document: "companies/{companyId}/incidents/{incidentId}" },
  async (event) =>
    (await changes()).recordIncidentChange(
      event.params.companyId,
      event.params.incidentId,
      event.data?.before,
    ),
);
