import type { Request, Response } from "express";
import { Timestamp, type DocumentSnapshot } from "firebase-admin/firestore";
import { MINUTE_MS } from "../lib/dates";
import { auditWriteFailed, unattributedRequest } from "../logs";
import { UsageContentionError } from "../repos/apiKeyUsage";
import {
  appendAuditEntry,
  auditEntry,
  settleRefusedChange,
  settleRequestEntry,
  type AuditOrigin,
} from "../repos/auditLogs";
import type { CountedEntry } from "../repos/usageShards";
import { consume, type RateLimitDecision } from "../services/rateLimit";
import { pathOf, type AuditSubject, type Principal, type RequestContext } from "./context";
import { ApiError, type RefusedChangeNote } from "./errors";
import { rememberRefusal } from "./refusalMemory";
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

/**
 * Counts the request against its key's minute and day windows before anything else runs, with
 * its audit entry in the same batch; 429 with `Retry-After` when a window is full. Across
 * instances the count is exact (repos/apiKeyUsage), so no handler runs for a request the
 * window refuses.
 */
export async function admit(
  res: Response,
  principal: Principal,
  counter: DocumentSnapshot,
  entry: CountedEntry,
): Promise<void> {
  let decision;
  try {
    decision = await consume(principal.keyHash, principal.limits, counter, entry);
  } catch (err) {
    // Extreme concurrency on one key from many instances: ask the caller to slow down.
    if (err instanceof UsageContentionError)
      throw new ApiError(
        "rate_limited",
        "Too many concurrent requests with this key; retry after 1 s.",
        { "Retry-After": "1" },
      );
    throw err;
  }
  res.set("RateLimit-Policy", policyHeader(decision));
  res.set("RateLimit", remainingHeader(decision));
  if (!decision.allowed) {
    const what = decision.limitedBy === "day" ? "daily quota" : "requests per minute";
    const error = new ApiError(
      "rate_limited",
      `Rate limit exceeded (${what}); retry after ${decision.retryAfterSeconds} s.`,
      {
        "Retry-After": String(decision.retryAfterSeconds),
        RateLimit: remainingHeader(decision),
        "RateLimit-Policy": policyHeader(decision),
      },
    );
    rememberRefusal(principal.keyHash, error, principal, decision.retryAfterSeconds * 1000);
    throw error;
  }
}

/** `RateLimit-Policy` of draft-ietf-httpapi-ratelimit-headers-11. */
export function policyHeader(decision: RateLimitDecision): string {
  return decision.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.windowSeconds}`).join(", ");
}

/**
 * `RateLimit` of the same draft, for the closer limit: the window with the fewest requests
 * left, and on a tie the one that resets first.
 */
export function remainingHeader(decision: RateLimitDecision): string {
  const [closer] = [...decision.windows].sort(
    (a, b) => a.remaining - b.remaining || a.resetSeconds - b.resetSeconds,
  );
  return `"${closer.name}";r=${closer.remaining};t=${closer.resetSeconds}`;
}
