import type { Request, Response } from "express";
import { appendAuditEntry, auditEntry } from "../repos/auditLogs";
import { contextOf, pathOf, type RequestContext } from "./context";
import { noteRefusal, REFUSED_STATUSES } from "./refusals";
import { auditWriteFailed, unattributedRequest } from "../logs";

/**
 * Records one finished request: an audit entry in the key's company when the key was
 * recognised (refusals aggregated per key and minute, see refusals.ts), else a structured log
 * line (no key material). Awaited before the response is
 * sent, because Cloud Functions may freeze the instance as soon as it has answered.
 * Public endpoints (no key involved) are not recorded. Never throws: a failed audit write is
 * logged, and never turns an answer (or a change already committed) into an error.
 */
export async function recordRequest(req: Request, res: Response, status: number): Promise<void> {
  const ctx = contextOf(res);
  if (ctx.recorded) return;
  ctx.recorded = true;
  const subject = ctx.auditSubject;
  const failed = (companyId: string) => (err: unknown) => auditWriteFailed({ api: ctx.api, requestId: ctx.requestId, method: req.method, path: pathOf(req), companyId }, err);
  if (subject && REFUSED_STATUSES.has(status)) {
    await noteRefusal(ctx, subject, { method: req.method, path: pathOf(req), status }).catch(failed(subject.companyId));
  } else if (subject) {
    await appendAuditEntry(
      subject.companyId,
      auditEntry({
        class: ctx.privileged ? "privileged" : "operational",
        action: "api.request",
        actor: subject.actor,
        api: ctx.api,
        method: req.method,
        path: pathOf(req),
        status,
        requestId: ctx.requestId,
        clientRequestId: ctx.clientRequestId,
        projectId: subject.projectId,
      }),
    ).catch(failed(subject.companyId));
  } else if (ctx.rejection) {
    unattributedRequest({
      api: ctx.api,
      requestId: ctx.requestId,
      method: req.method,
      path: pathOf(req),
      status,
      reason: ctx.rejection,
    });
  }
}

/**
 * Who made a change and through which request, for the change's own audit entry (committed
 * with the change; the request's entry follows with its status).
 */
export function changeOrigin(req: Request, ctx: RequestContext) {
  if (!ctx.auditSubject) throw new Error("a change needs an authenticated caller");
  return {
    actor: ctx.auditSubject.actor,
    api: ctx.api,
    method: req.method,
    path: pathOf(req),
    status: null,
    requestId: ctx.requestId,
    clientRequestId: ctx.clientRequestId,
    projectId: ctx.auditSubject.projectId,
  };
}
