import type { NextFunction, Request, Response } from "express";
import { randomUUID } from "node:crypto";
import type { KeyApi } from "../lib/apiKeyFormat";
import type { ProjectDoc } from "../repos/projects";
import type { Limits } from "../services/rateWindows";

/** What every request carries from its first middleware on (`requestContext`). */
export interface RequestContext {
  /** Generated for every request; never the caller's. */
  requestId: string;
  /** The caller's own `X-Request-Id`, when it was sane. */
  clientRequestId: string | null;
  api: KeyApi;
}

/** Whose request it is: known as soon as a key document has been read, even if then refused. */
export interface AuditSubject {
  companyId: string;
  projectId: string | null;
  actor: { type: "api_key"; id: string; name: string };
  /** Anything done with a provisioning key is audited as privileged (kept 2 years). */
  privileged: boolean;
}

/**
 * An authenticated caller: a live key of an enabled company (and, for findings keys, its live
 * project).
 */
export interface Principal extends AuditSubject {
  keyHash: string;
  scopes: string[];
  limits: Limits;
  /** Findings keys: the key's project, read during authentication. */
  project: ProjectDoc | null;
}

/** A findings key's caller: its project is always there. */
export type ProjectPrincipal = Principal & { projectId: string; project: ProjectDoc };

const KEY = "ctx";

export function setContext(res: Response, ctx: RequestContext): void {
  res.locals[KEY] = ctx;
}

export function contextOf(res: Response): RequestContext {
  const ctx = res.locals[KEY] as RequestContext | undefined;
  if (!ctx) throw new Error("request context missing: createApp installs it first");
  return ctx;
}

/** The request path without the query string, as recorded in audit entries. */
export function pathOf(req: Request): string {
  return req.originalUrl.split("?")[0];
}

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
