import type { Request, Response } from "express";
import type { KeyApi } from "../lib/apiKeyFormat";
import type { ProjectDoc } from "../repos/projects";
import type { Limits } from "../services/rateWindows";

/** What every request carries from its first middleware on (requestId.ts). */
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

/** An authenticated caller: a live key of an enabled company (and, for findings keys, its live project). */
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
