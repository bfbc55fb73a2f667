import { logger } from "firebase-functions";
import { onCall, onRequest } from "firebase-functions/v2/https";
import { beforeUserSignedIn, HttpsError } from "firebase-functions/v2/identity";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { createCompanyApp } from "./company/app";
import { createApiKeyHandler } from "./console/createApiKey";
import { esrsS1ReportHandler } from "./console/esrsS1Report";
import { listApiKeysHandler } from "./console/listApiKeys";
import { refreshKpiRollupHandler } from "./console/refreshKpiRollup";
import { revokeApiKeyHandler } from "./console/revokeApiKey";
import { setApiAccessHandler } from "./console/setApiAccess";
import { PAGE_TOKEN_SECRET } from "./config/params";
import { apiOptions, callableOptions, jobOptions, reportCallableOptions } from "./config/runtime";
import { createFindingsApp } from "./findings/app";
import { sweepAccountIntents } from "./services/accountIntents";
import { recordSignIn } from "./services/userCommit";
import { refreshAllRollups } from "./services/rollupJob";

/** The Vessel Findings Export API (read-only, one key per vessel). */
export const findingsApi = onRequest({ ...apiOptions, secrets: [PAGE_TOKEN_SECRET] }, createFindingsApp());

/** The Company Safety-Data and Provisioning API. */
export const companyApi = onRequest({ ...apiOptions, secrets: [PAGE_TOKEN_SECRET] }, createCompanyApp());

/** Key management for the app's console (Firebase Auth required; see README). */
export const setApiAccess = onCall(callableOptions, setApiAccessHandler);
export const createApiKey = onCall(callableOptions, createApiKeyHandler);
export const listApiKeys = onCall(callableOptions, listApiKeysHandler);
export const revokeApiKey = onCall(callableOptions, revokeApiKeyHandler);

/** Company reports for the app (owner or Admin): the same services the company API serves. */
export const refreshKpiRollup = onCall(reportCallableOptions, refreshKpiRollupHandler);
export const esrsS1Report = onCall(reportCallableOptions, esrsS1ReportHandler);

/** The daily KPI rollup of every company with the company API on (GET /v1/kpis serves it). */
export const kpiRollupDaily = onSchedule({ ...jobOptions, schedule: "every day 02:30", timeZone: "Etc/UTC" }, async () => {
  logger.info("kpi_rollup.daily", await refreshAllRollups());
});

/**
 * Provisioning's half-done work (an instance stopped between Firebase Auth and the roster):
 * every 10 minutes, the oldest 200 intents older than 10 minutes are settled, so Auth follows
 * the roster within 20 minutes (docs/provisioning-crash-safety.md).
 */
export const accountIntentSweep = onSchedule({ ...jobOptions, schedule: "every 10 minutes", timeZone: "Etc/UTC" }, async () => {
  logger.info("provisioning.intent_sweep", await sweepAccountIntents());
});

/**
 * Sign-in follows the roster: a deactivated or removed person cannot sign in (even if Firebase
 * Auth still lets them), and an invited person becomes active at their first sign-in.
 */
export const rosterSignIn = beforeUserSignedIn({ region: callableOptions.region, serviceAccount: callableOptions.serviceAccount }, async (event) => {
  if ((await recordSignIn(event.data?.uid ?? "")) === "refused") {
    throw new HttpsError("permission-denied", "This account has been deactivated; ask your company's administrator.");
  }
});
