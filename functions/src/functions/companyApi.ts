import { onRequest } from "firebase-functions/v2/https";
import { PAGE_TOKEN_SECRET } from "../config/params";
import { apiOptions } from "../config/runtime";
import { appUnavailable } from "../http/appUnavailable";
import { lazyOnce, loadOrExit } from "../lib/lazy";

const companyApp = lazyOnce(async () =>
  (await loadOrExit(() => import("../company/app"))).createCompanyApp(),
);

/** The Company Safety-Data and Provisioning API (its app also serves SCIM). */
export const companyApi = onRequest(
  { ...apiOptions, secrets: [PAGE_TOKEN_SECRET] },
  async (req, res) => {
    const app = await companyApp().catch((err: unknown) =>
      appUnavailable("company", req, res, err),
    );
    if (app) app(req, res);
  },
);
