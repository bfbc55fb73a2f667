import { onCall, onRequest } from "firebase-functions/v2/https";
import { createCompanyApp } from "./company/app";
import { createApiKeyHandler } from "./console/createApiKey";
import { listApiKeysHandler } from "./console/listApiKeys";
import { revokeApiKeyHandler } from "./console/revokeApiKey";
import { setApiAccessHandler } from "./console/setApiAccess";
import { PAGE_TOKEN_SECRET } from "./config/params";
import { apiOptions, callableOptions } from "./config/runtime";
import { createFindingsApp } from "./findings/app";

/** The Vessel Findings Export API (read-only, one key per vessel). */
export const findingsApi = onRequest({ ...apiOptions, secrets: [PAGE_TOKEN_SECRET] }, createFindingsApp());

/** The Company Safety-Data and Provisioning API. */
export const companyApi = onRequest({ ...apiOptions, secrets: [PAGE_TOKEN_SECRET] }, createCompanyApp());

/** Key management for the app's console (Firebase Auth required; see README). */
export const setApiAccess = onCall(callableOptions, setApiAccessHandler);
export const createApiKey = onCall(callableOptions, createApiKeyHandler);
export const listApiKeys = onCall(callableOptions, listApiKeysHandler);
export const revokeApiKey = onCall(callableOptions, revokeApiKeyHandler);
