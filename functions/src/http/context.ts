import type { Request, Response } from "express";
import type { DocumentSnapshot } from "firebase-admin/firestore";
import type { KeyApi } from "../lib/apiKeyFormat";
import type { ProjectDoc } from "../repos/projects";

/** Who an audit entry is about: known as soon as a key document has been read. */
export interface AuditSubject {
  companyId: string;
  projectId: string | null;
  actor: { type: "api_key"; id: string; name: string };
}

/** An authenticated caller: a live key of an enabled company. */
export interface Principal extends AuditSubject {
  keyHash: string;
  scopes: string[];
  limits: { perMinute: number; perDay: number };
  /** Findings keys: the key's project, read during authentication and reused by handlers. */
  project?: ProjectDoc;
  /** The key's usage counter, read alongside the company (see repos/apiKeyUsage). */
  usage?: Promise<DocumentSnapshot>;
}

export interface RequestContext {
  /** Generated for every request; never the caller's. */
  requestId: string;
  /** The caller's own `X-Request-Id`, when it was sane. */
  clientRequestId: string | null;
  api: KeyApi;
  /** Set once the key's company is known, even if the request is then refused. */
  auditSubject?: AuditSubject;
  principal?: Principal;
  /** Whether the request is audited as `privileged` (provisioning) rather than `operational`. */
  privileged?: boolean;
  /** Why an unattributable request failed, for the function log. */
  rejection?: string;
  /** Admitted provisionally (a read-only request): counted with its audit entry when recorded. */
  uncounted?: boolean;
  /** The response was audited (or logged) already; never twice. */
  recorded?: boolean;
}

const KEY = "ctx";

export function setContext(res: Response, ctx: RequestContext): void {
  res.locals[KEY] = ctx;
}

export function contextOf(res: Response): RequestContext {
  const ctx = res.locals[KEY] as RequestContext | undefined;
  if (!ctx) throw new Error("request context missing: createApp installs it first");
  return ctx;
}

export function principalOf(res: Response): Principal {
  const { principal } = contextOf(res);
  if (!principal) throw new Error("route requires an authenticated principal");
  return principal;
}

/** The request path without the query string, as recorded in audit entries. */
export function pathOf(req: Request): string {
  return req.originalUrl.split("?")[0];
}

/** The caller of a keyed route (authentication ran before every keyed handler). */
export function authenticated(principal: Principal | undefined): Principal {
  if (!principal) throw new Error("keyed route without an authenticated principal");
  return principal;
}

/** The project a findings key is bound to (authentication guarantees one exists). */
export function keyProjectId(principal: Principal | undefined): string {
  const { projectId } = authenticated(principal);
  if (!projectId) throw new Error("findings route without an authenticated project key");
  return projectId;
}
