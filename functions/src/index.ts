import { onRequest } from "firebase-functions/v2/https";
import { createCompanyApp } from "./company/app";
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
