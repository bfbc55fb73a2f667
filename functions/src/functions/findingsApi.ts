import { onRequest } from "firebase-functions/v2/https";
import { PAGE_TOKEN_SECRET } from "../config/params";
import { apiOptions } from "../config/runtime";
import { appUnavailable } from "../http/appUnavailable";
import { lazyOnce, loadOrExit } from "../lib/lazy";

const findingsApp = lazyOnce(async () =>
  (await loadOrExit(() => import("../findings/app"))).createFindingsApp(),
);

/** The Vessel Findings Export API (read-only, one key per vessel). */
export const findingsApi = onRequest(
  { ...apiOptions, secrets: [PAGE_TOKEN_SECRET] },
  async (req, res) => {
    const app = await findingsApp().catch((err: unknown) =>
      appUnavailable("findings", req, res, err),
    );
    if (app) app(req, res);
  },
);
