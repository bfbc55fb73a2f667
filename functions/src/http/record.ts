import type { Request } from "express";
import { Timestamp } from "firebase-admin/firestore";
import { MINUTE_MS } from "../lib/dates";
import { auditWriteFailed, unattributedRequest } from "../logs";
import {
  appendAuditEntry,
  auditEntry,
  settleRefusedChange,
  settleRequestEntry,
  type AuditOrigin,
} from "../repos/auditLogs";
import type { CountedEntry } from "../repos/usageCommit";
import { pathOf, type AuditSubject, type RequestContext } from "./context";
import type { RefusedChangeNote } from "./errors";
import { noteRefusal, REFUSED_STATUSES } from "./refusals";

/** Who changes something through this request (a change's own entry commits with the change). */
export function originOf(req: Request, ctx: RequestContext, subject: AuditSubject): AuditOrigin {
  return {
    actor: subject.actor,
    api: ctx.api,
    method: req.method,
    path: pathOf(req),
    status: null,
    requestId: ctx.requestId,
    clientRequestId: ctx.clientRequestId,
    projectId: subject.projectId,
  };
}

/**
 * The request's own `api.request` entry, stored under its request id (a request never leaves
 * two). It is created with the request's count, before the handler, with `status: null`, and
 * settled with the outcome afterwards: an entry left at null is a request whose instance
 * stopped before answering.
 */
export function requestEntry(
  req: Request,
  ctx: RequestContext,
  subject: AuditSubject,
  status: number | null = null,
): CountedEntry {
  const entry = auditEntry({
    ...originOf(req, ctx, subject),
    class: subject.privileged ? "privileged" : "operational",
    action: "api.request",
    status,
  });
  return { companyId: subject.companyId, entry, id: ctx.requestId };
}

export interface Outcome {
  /** The key's subject, when the key was recognised. */
  subject: AuditSubject | null;
  /** Counted with its pending entry (only the status is left to write). */
  admitted: boolean;
  status: number;
  /** Why a request of no known key failed, for the function log. */
  reason?: string;
  /** A protected user's change the request was refused (audited as privileged). */
  refusedChange?: RefusedChangeNote;
}

/** The refused change's privileged entry, with the request's status and the key's minute count. */
function recordRefusedChange(
  req: Request,
  ctx: RequestContext,
  subject: AuditSubject,
  status: number,
  refused: RefusedChangeNote,
): Promise<void> {
  const entry = auditEntry({
    ...originOf(req, ctx, subject),
    class: "privileged",
    action: refused.action,
    status,
    target: { type: "user", id: refused.uid },
  });
  const minute = Math.floor(entry.at.toMillis() / MINUTE_MS);
  return settleRefusedChange(subject.companyId, ctx.requestId, entry, {
    id: `changes_refused_${subject.actor.id}_${minute}`,
    at: Timestamp.fromMillis(minute * MINUTE_MS),
  });
}

/**
 * Records one finished keyed request before it is answered (Cloud Functions may freeze the
 * instance once it has answered): the admitted request's entry settled with its status; a
 * refusal of a known key counted in its aggregate (refusals.ts); another failure of a known key
 * as an entry of its own; anything else as a log line without key material. A failed write is
 * logged and never changes the answer.
 */
export async function record(req: Request, ctx: RequestContext, outcome: Outcome): Promise<void> {
  const { subject, status } = outcome;
  const where = { api: ctx.api, requestId: ctx.requestId, method: req.method, path: pathOf(req) };
  if (!subject) {
    unattributedRequest({ ...where, status, reason: outcome.reason ?? "" });
    return;
  }
  const failed = (err: unknown) =>
    auditWriteFailed({ ...where, companyId: subject.companyId }, err);
  if (outcome.admitted && outcome.refusedChange) {
    await recordRefusedChange(req, ctx, subject, status, outcome.refusedChange).catch(failed);
  } else if (outcome.admitted) {
    await settleRequestEntry(subject.companyId, ctx.requestId, status).catch(failed);
  } else if (REFUSED_STATUSES.has(status)) {
    await noteRefusal(ctx, subject, { method: req.method, path: pathOf(req), status }).catch(
      failed,
    );
  } else {
    const { entry, id } = requestEntry(req, ctx, subject, status);
    await appendAuditEntry(subject.companyId, entry, id).catch(failed);
  }
}
