import type { Request, Response } from "express";
import { appendAuditEntry, auditEntry } from "../repos/auditLogs";
import { confirmProvisional } from "../services/rateLimit";
import { authenticated, contextOf, pathOf, type AuditSubject, type RequestContext } from "./context";
import { ApiError } from "./errors";
import { applyDecision, contentionError } from "./rateLimit";
import { noteRefusal, REFUSED_STATUSES } from "./refusals";
import { auditWriteFailed, unattributedRequest } from "../logs";

function requestEntry(req: Request, ctx: RequestContext, subject: AuditSubject, status: number) {
  return auditEntry({
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
  });
}

/**
 * Counts a provisionally admitted request (rateLimit.ts), with its audit entry in the same
 * batch unless it is a refusal (those are aggregated). Null once counted; otherwise the error
 * to answer instead, with nothing of this request written: the window filled up meanwhile
 * (429), or Firestore failed (500, logged).
 */
async function countProvisional(req: Request, res: Response, ctx: RequestContext, status: number, failed: (err: unknown) => void): Promise<ApiError | null> {
  ctx.uncounted = false;
  const principal = authenticated(ctx.principal);
  const entry = REFUSED_STATUSES.has(status) ? undefined : { companyId: principal.companyId, entry: requestEntry(req, ctx, principal, status), id: ctx.requestId };
  try {
    const refused = applyDecision(res, await confirmProvisional(principal.keyHash, principal.limits, principal.usage, entry));
    if (!refused && entry) ctx.recorded = true;
    return refused;
  } catch (err) {
    const mapped = contentionError(err);
    if (mapped instanceof ApiError) return mapped;
    failed(err);
    return new ApiError("internal", "An internal error occurred; retry with exponential backoff.");
  }
}

/**
 * Records one finished request: an audit entry in the key's company when the key was
 * recognised (refusals aggregated per key and minute, see refusals.ts), else a structured log
 * line (no key material). Awaited before the response is sent, because Cloud Functions may
 * freeze the instance as soon as it has answered. Public endpoints (no key involved) are not
 * recorded. A failed audit write is logged, and never turns an answer (or a change already
 * committed) into an error.
 *
 * The one exception is a provisionally admitted request, counted here with its entry: when
 * that count refuses or fails, the error to answer instead is returned (and recorded by the
 * caller in turn); null otherwise.
 */
export async function recordRequest(req: Request, res: Response, status: number): Promise<ApiError | null> {
  const ctx = contextOf(res);
  const subject = ctx.auditSubject;
  const failed = (err: unknown) => auditWriteFailed({ api: ctx.api, requestId: ctx.requestId, method: req.method, path: pathOf(req), companyId: subject?.companyId ?? "" }, err);
  if (ctx.uncounted) {
    const instead = await countProvisional(req, res, ctx, status, failed);
    if (instead) return instead;
  }
  if (ctx.recorded) return null;
  ctx.recorded = true;
  if (subject && REFUSED_STATUSES.has(status)) {
    await noteRefusal(ctx, subject, { method: req.method, path: pathOf(req), status }).catch(failed);
  } else if (subject) {
    await appendAuditEntry(subject.companyId, requestEntry(req, ctx, subject, status), ctx.requestId).catch(failed);
  } else if (ctx.rejection) {
    unattributedRequest({ api: ctx.api, requestId: ctx.requestId, method: req.method, path: pathOf(req), status, reason: ctx.rejection });
  }
  return null;
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
