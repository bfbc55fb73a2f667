import { onRequest } from "firebase-functions/v2/https";
import { PAGE_TOKEN_SECRET } from "../config/params";
import { apiOptions } from "../config/runtime";
import { lazyOnce } from "../lib/lazy";

const findingsApp = lazyOnce(async () => (await import("../findings/app")).createFindingsApp());

/** The Vessel Findings Export API (read-only, one key per vessel). */
export const findingsApi = onRequest(
  { ...apiOptions, secrets: [PAGE_TOKEN_SECRET] },
  async (req, res) => {
    (await findingsApp())(req, res);
  },
);
