import { onCall } from "firebase-functions/v2/https";
import { callableOptions, reportCallableOptions } from "../config/runtime";
import { loadOrExit } from "../lib/lazy";

/** Key management for the app's console (Firebase Auth required; see docs/console.md). */
export const setApiAccess = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/setApiAccess"))).setApiAccessHandler(request),
);
export const createApiKey = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/createApiKey"))).createApiKeyHandler(request),
);
export const listApiKeys = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/listApiKeys"))).listApiKeysHandler(request),
);
export const revokeApiKey = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/revokeApiKey"))).revokeApiKeyHandler(request),
);
/** The reference console's (console-web/): rolling a key, a key's usage, the audit trail. */
export const rollApiKey = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/rollApiKey"))).rollApiKeyHandler(request),
);
export const apiKeyUsage = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/apiKeyUsageChart"))).apiKeyUsageHandler(request),
);
export const listAuditTrail = onCall(callableOptions, async (request) =>
  (await loadOrExit(() => import("../console/listAuditTrail"))).listAuditTrailHandler(request),
);

/** Company reports for the app (owner or Admin): the same services the company API serves. */
export const refreshKpiRollup = onCall(reportCallableOptions, async (request) =>
  (await loadOrExit(() => import("../console/refreshKpiRollup"))).refreshKpiRollupHandler(request),
);
export const esrsS1Report = onCall(reportCallableOptions, async (request) =>
  (await loadOrExit(() => import("../console/esrsS1Report"))).esrsS1ReportHandler(request),
);
export const freezeEsrsS1Report = onCall(reportCallableOptions, async (request) =>
  (await loadOrExit(() => import("../console/freezeEsrsS1Report"))).freezeEsrsS1ReportHandler(
    request,
  ),
);
