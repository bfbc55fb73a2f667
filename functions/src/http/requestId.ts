import type { NextFunction, Request, Response } from "express";
import { randomUUID } from "node:crypto";
import type { KeyApi } from "../lib/apiKeyFormat";
import { setContext } from "./context";

/** A caller's id is kept when it is short and plain enough to log and echo safely. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The request id is always ours (`req_` + 32 hex digits), so audit entries and logs can neither
 * be forged nor collide. A caller's own `X-Request-Id`, when sane, is kept beside it: echoed as
 * `X-Client-Request-Id` and stored as the audit entry's `clientRequestId`.
 */
export function requestContext(api: KeyApi) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get("x-request-id");
    const clientRequestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : null;
    const requestId = `req_${randomUUID().replace(/-/g, "")}`;
    setContext(res, { requestId, clientRequestId, api });
    res.set("X-Request-Id", requestId);
    if (clientRequestId) res.set("X-Client-Request-Id", clientRequestId);
    res.set("Cache-Control", "no-store");
    // The platform's own Express app (Functions runtime, emulator) sets it before ours runs.
    res.removeHeader("X-Powered-By");
    next();
  };
}
