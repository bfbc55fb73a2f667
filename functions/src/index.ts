import { onDocumentWritten } from "firebase-functions/v2/firestore";
import { onCall, onRequest } from "firebase-functions/v2/https";
import { beforeUserSignedIn, HttpsError } from "firebase-functions/v2/identity";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { PAGE_TOKEN_SECRET } from "./config/params";
import {
  apiOptions,
  callableOptions,
  jobOptions,
  reportCallableOptions,
  triggerOptions,
} from "./config/runtime";
import { jobFinished } from "./logs";

/*
 * Each function loads its own modules at its first call (`import()`, cached by Node), so an
 * instance's cold start pays for its function's module graph only (docs/benchmarks.md, "Cold
 * start"). This file imports only what declaring the functions needs.
 */

/** An Express app built at the first request and kept; a failed load is retried by the next. */
function lazyApp<T>(build: () => Promise<T>): () => Promise<T> {
  let app: Promise<T> | undefined;
  return () =>
    (app ??= build().catch((err: unknown) => {
      app = undefined;
      throw err;
    }));
}

const findingsApp = lazyApp(async () => (await import("./findings/app")).createFindingsApp());
const companyApp = lazyApp(async () => (await import("./company/app")).createCompanyApp());

/** The Vessel Findings Export API (read-only, one key per vessel). */
export const findingsApi = onRequest(
  { ...apiOptions, secrets: [PAGE_TOKEN_SECRET] },
  async (req, res) => {
    (await findingsApp())(req, res);
  },
);

/** The Company Safety-Data and Provisioning API. */
export const companyApi = onRequest(
  { ...apiOptions, secrets: [PAGE_TOKEN_SECRET] },
  async (req, res) => {
    (await companyApp())(req, res);
  },
);

/** Key management for the app's console (Firebase Auth required; see docs/api-behaviour.md). */
export const setApiAccess = onCall(callableOptions, async (request) =>
  (await import("./console/setApiAccess")).setApiAccessHandler(request),
);
export const createApiKey = onCall(callableOptions, async (request) =>
  (await import("./console/createApiKey")).createApiKeyHandler(request),
);
export const listApiKeys = onCall(callableOptions, async (request) =>
  (await import("./console/listApiKeys")).listApiKeysHandler(request),
);
export const revokeApiKey = onCall(callableOptions, async (request) =>
  (await import("./console/revokeApiKey")).revokeApiKeyHandler(request),
);
/** The reference console's (console-web/): rolling a key, a key's usage, the audit trail. */
export const rollApiKey = onCall(callableOptions, async (request) =>
  (await import("./console/rollApiKey")).rollApiKeyHandler(request),
);
export const apiKeyUsage = onCall(callableOptions, async (request) =>
  (await import("./console/apiKeyUsage")).apiKeyUsageHandler(request),
);
export const listAuditTrail = onCall(callableOptions, async (request) =>
  (await import("./console/listAuditTrail")).listAuditTrailHandler(request),
);

/** Company reports for the app (owner or Admin): the same services the company API serves. */
export const refreshKpiRollup = onCall(reportCallableOptions, async (request) =>
  (await import("./console/refreshKpiRollup")).refreshKpiRollupHandler(request),
);
export const esrsS1Report = onCall(reportCallableOptions, async (request) =>
  (await import("./console/esrsS1Report")).esrsS1ReportHandler(request),
);
export const freezeEsrsS1Report = onCall(reportCallableOptions, async (request) =>
  (await import("./console/freezeEsrsS1Report")).freezeEsrsS1ReportHandler(request),
);

/**
 * A department created or renamed gives itself to the users whose provider sent its name before it
 * existed (`unmatchedDepartment`): docs/api-behaviour.md, SCIM, "Departments".
 */
export const departmentRematch = onDocumentWritten(
  { ...jobOptions, retry: true, document: "companies/{companyId}/departments/{departmentId}" },
  async (event) => {
    const { nameToRematch, rematchDepartment } = await import("./services/departmentRematch");
    const name = nameToRematch(event.data?.before.data(), event.data?.after.data());
    if (name === null) return;
    const { companyId, departmentId } = event.params;
    const users = await rematchDepartment(companyId, { id: departmentId, name });
    jobFinished("department.rematch", { companyId, departmentId, users });
  },
);

/**
 * A change of the company's role map (or of who owns roles) reaches its provisioned users: their
 * stored provider value is mapped again (docs/api-behaviour.md, SCIM: "A role map changed later
 * reaches existing users"); a change of its group map reaches the members of its SCIM groups.
 * Every other write of the company (`seatsUsed` moves with each invitation) returns at once.
 */
export const roleRematch = onDocumentWritten(
  { ...jobOptions, retry: true, document: "companies/{companyId}" },
  async (event) => {
    const { rematchRoles, roleSettingsChanged, groupMapChanged } =
      await import("./services/roleRematch");
    const [before, after] = [event.data?.before.data(), event.data?.after.data()];
    const [roles, groups] = [roleSettingsChanged(before, after), groupMapChanged(before, after)];
    if (!roles && !groups) return;
    const { companyId } = event.params;
    const users = roles ? await rematchRoles(companyId) : 0;
    // After the role map: a role a group gives wins over it.
    const { rematchGroupMembers } = await import("./services/groupMap");
    const members = groups ? await rematchGroupMembers(companyId) : 0;
    jobFinished("role.rematch", { companyId, users, members });
  },
);

/** The daily KPI rollup of every company with the company API on (GET /v1/kpis serves it). */
export const kpiRollupDaily = onSchedule(
  { ...jobOptions, schedule: "every day 02:30", timeZone: "Etc/UTC" },
  async () => {
    const { refreshAllRollups } = await import("./services/rollupJob");
    jobFinished("kpi_rollup.daily", await refreshAllRollups());
  },
);

/**
 * Provisioning's half-done work (an instance stopped between Firebase Auth and the roster):
 * every 10 minutes, the oldest 200 intents older than 10 minutes are settled, so Auth follows
 * the roster within 20 minutes (docs/provisioning-crash-safety.md).
 */
export const accountIntentSweep = onSchedule(
  { ...jobOptions, schedule: "every 10 minutes", timeZone: "Etc/UTC" },
  async () => {
    const { sweepAccountIntents } = await import("./services/users/accountSync");
    jobFinished("provisioning.intent_sweep", await sweepAccountIntents());
  },
);

/**
 * SCIM group changes whose roles an instance stopped before applying (no retry came): every 10
 * minutes, the oldest 500 users marked due more than 10 minutes ago get what their groups give
 * (docs/firestore-data.md, `groupRoleDueAt`).
 */
export const groupRoleSweep = onSchedule(
  { ...jobOptions, schedule: "every 10 minutes", timeZone: "Etc/UTC" },
  async () => {
    const { sweepGroupRoles } = await import("./services/groupMap");
    jobFinished("group.role_sweep", { users: await sweepGroupRoles() });
  },
);

/**
 * Sign-in follows the roster: a deactivated or removed person cannot sign in (even if Firebase
 * Auth still lets them), and an invited person becomes active at their first sign-in.
 */
export const rosterSignIn = beforeUserSignedIn(
  { region: callableOptions.region, serviceAccount: callableOptions.serviceAccount },
  async (event) => {
    const { recordSignIn } = await import("./services/users/commit");
    if ((await recordSignIn(event.data?.uid ?? "")) === "refused") {
      throw new HttpsError(
        "permission-denied",
        "This account has been deactivated; ask your company's administrator.",
      );
    }
  },
);

/**
 * The change records behind the delta endpoints (docs/firestore-data.md, "Change records"): a
 * write of a finding, of one of its comments or files, or of an incident records the server time
 * and the state of its finding or incident. Each run reads the current state, never the event's.
 */
const changes = () => import("./services/changes");
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
