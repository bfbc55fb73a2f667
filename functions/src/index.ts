import { onCall, onRequest } from "firebase-functions/v2/https";
import { createCompanyApp } from "./company/app";
import { createApiKeyHandler } from "./console/createApiKey";
import { listApiKeysHandler } from "./console/listApiKeys";
import { revokeApiKeyHandler } from "./console/revokeApiKey";
import { setApiAccessHandler } from "./console/setApiAccess";
import { REGION } from "./config/constants";
import { PAGE_TOKEN_SECRET } from "./config/params";
import { createFindingsApp } from "./findings/app";

/** The Vessel Findings Export API (read-only, one key per vessel). */
export const findingsApi = onRequest(
  { region: REGION, memory: "256MiB", timeoutSeconds: 60, secrets: [PAGE_TOKEN_SECRET] },
  createFindingsApp(),
);

/** The Company Safety-Data and Provisioning API. */
export const companyApi = onRequest({ region: REGION, memory: "256MiB", timeoutSeconds: 60 }, createCompanyApp());

/** Key management for the app's console (Firebase Auth required; see README). */
const callableOptions = { region: REGION, memory: "256MiB" as const, timeoutSeconds: 30 };
export const setApiAccess = onCall(callableOptions, setApiAccessHandler);
export const createApiKey = onCall(callableOptions, createApiKeyHandler);
export const listApiKeys = onCall(callableOptions, listApiKeysHandler);
export const revokeApiKey = onCall(callableOptions, revokeApiKeyHandler);
