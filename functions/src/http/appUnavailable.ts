import type { Request, Response } from "express";
import { randomUUID } from "node:crypto";
import { recordedPath } from "../lib/recordedPath";
import { requestFailed } from "../logs";

/**
 * The answer when an API's app failed to load: the `internal` envelope (SCIM: a SCIM error) with
 * a request id, and the failure logged, instead of the platform's bare HTML 500. An app that
 * failed to build is built again by the next request; code that failed to load ends the instance
 * soon after this answer (lib/lazy.ts, loadOrExit), and the platform starts a fresh one. Nothing
 * is audited: without the app no key was read. This file imports nothing heavy, so the function
 * can answer before its modules are loaded.
 */
export function appUnavailable(api: string, req: Request, res: Response, err: unknown): void {
  const requestId = `req_${randomUUID().replace(/-/g, "")}`;
  requestFailed({ api, requestId, method: req.method, path: recordedPath(req.path) }, err);
  const detail = `The service could not start; retry with backoff (request ${requestId}).`;
  res.status(500).set({ "X-Request-Id": requestId, "Cache-Control": "no-store" });
  if (req.path.startsWith("/scim/")) {
    res.type("application/scim+json").send(
      JSON.stringify({
        schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
        status: "500",
        detail,
      }),
    );
    return;
  }
  res.json({ error: { code: "internal", message: detail, request_id: requestId } });
}
