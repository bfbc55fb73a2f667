import type { NextFunction, Request, Response } from "express";
import { randomUUID } from "node:crypto";
import parseurl from "parseurl";
import { MAX_BODY_BYTES, REGION } from "../config/constants";
import { projectId } from "../config/params";
import type { KeyApi } from "../lib/apiKeyFormat";
import { recordedPath } from "../lib/recordedPath";
import type { ProjectDoc } from "../repos/companies";
import type { Limits } from "../services/rateLimit";
import { ApiError } from "./errors";

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

/**
 * The request path without the query string, whole: the path Express routed the request on. A
 * target in absolute form (`GET http://user@host/v1/x`) or with a `#` is routed on `/v1/x`, so
 * that, not the text as sent, is what is recorded. The app is not mounted under a prefix, so
 * `req.url` is the original and the router's own parse (cached on `req`) is reused.
 */
export const requestPath = (req: Request): string =>
  (req.url === req.originalUrl ? parseurl(req) : parseurl.original(req))?.pathname ?? "";

/** The request path as audit entries and log lines record it (lib/recordedPath.ts). */
export const pathOf = (req: Request): string => recordedPath(requestPath(req));

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

/**
 * The body rules, checked on the raw request before authentication (so they cost no read):
 * - no `Content-Encoding` (gzip, deflate, br): 415. The Functions runtime inflates encoded bodies
 *   before the app runs, so the app cannot stop that work; the deployment's front door refuses them
 *   (docs/operations.md, "Deployment"), and this answer keeps the contract the same everywhere;
 * - at most MAX_BODY_BYTES, by `Content-Length` or by the raw body the runtime read (it parses
 *   `application/json` itself, with a limit of its own far above ours): 413.
 */
export const declaresBody = (req: Request) =>
  Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;

export function bodyGuard(req: Request, _res: Response, next: NextFunction): void {
  const encoding = req.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "identity" && declaresBody(req)) {
    return next(
      new ApiError(
        "unsupported_media_type",
        "Compressed request bodies are not accepted: send the body without `Content-Encoding`.",
      ),
    );
  }
  const declared = Number(req.get("content-length") ?? 0);
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (declared > MAX_BODY_BYTES || (Buffer.isBuffer(raw) && raw.length > MAX_BODY_BYTES)) {
    return next(
      new ApiError(
        "payload_too_large",
        `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`,
      ),
    );
  }
  next();
}

/**
 * The API's base address as the caller reached it, for links that must work when followed.
 * The platform strips the function's own path prefix before our app sees the request
 * (`/findingsApi/v1` arrives as `/v1`), so the prefix is rebuilt from where the request came:
 * - the Functions emulator: `http://HOST/PROJECT/REGION/FUNCTION`;
 * - `https://REGION-PROJECT.cloudfunctions.net/FUNCTION`;
 * - the Cloud Run URL or a custom domain mapped to the function: `https://HOST`.
 * FUNCTION_TARGET is the exported function's name, set by the emulator and by firebase deploy.
 */
export function publicBaseUrl(req: Request): string {
  const host = req.get("host") ?? "localhost";
  const fn = process.env.FUNCTION_TARGET ?? "";
  if (process.env.FUNCTIONS_EMULATOR === "true")
    return `http://${host}/${projectId()}/${REGION}/${fn}`;
  if (host.endsWith(".cloudfunctions.net") && fn) return `https://${host}/${fn}`;
  const local = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(host);
  return `${local ? "http" : "https"}://${host}`;
}
