import express, { type NextFunction, type Request, type Response } from "express";
import { MAX_BODY_BYTES } from "../config/constants";
import { scopeDigest } from "../lib/pageToken";
import { authenticate } from "./auth";
import { contextOf, type AuditSubject, type Principal, type RequestContext } from "./context";
import { answerableError, renderError, type ErrorDialect } from "./errorHandler";
import { ApiError } from "./errors";
import { runOnce } from "./idempotency";
import { admit } from "./rateLimit";
import { originOf, record, requestEntry } from "./record";
import { answerOf, parseInput, type AnyRoute, type KeyedRoute } from "./route";
import { sendAnswer } from "./sendJson";

const JSON_TYPES = ["application/json", "application/*+json"];
const jsonParser = express.json({ limit: MAX_BODY_BYTES, type: JSON_TYPES });

/**
 * Reads a JSON body. The Functions runtime parses `application/json` itself but hands other JSON
 * media types (`application/scim+json`) over as a raw Buffer, which express.json then leaves
 * alone: those are parsed here, with the same limits and errors.
 */
async function readBody(req: Request, res: Response): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    jsonParser(req, res, (err?: Error) => (err ? reject(err) : resolve())),
  );
  if (!Buffer.isBuffer(req.body) || !req.is(JSON_TYPES)) return;
  const raw = req.body;
  if (raw.length > MAX_BODY_BYTES)
    throw new ApiError("payload_too_large", "The request body is too large.");
  try {
    req.body = raw.length ? (JSON.parse(raw.toString("utf8")) as unknown) : undefined;
  } catch {
    throw Object.assign(new SyntaxError("malformed JSON body"), {
      type: "entity.parse.failed",
      status: 400,
    });
  }
}

/**
 * What a request's tokens are bound to: a page token to its operation, its tenant, its path and
 * every filter it was given; a delta token to its operation and tenant only.
 */
function tokenScopesOf(operationId: string, principal: Principal, params: unknown, query: unknown) {
  const filters =
    query && typeof query === "object" ? { ...query, limit: undefined, page_token: undefined } : {};
  const tenant = principal.projectId ?? principal.companyId;
  return {
    tokenScope: scopeDigest({ operation: operationId, tenant, params, filters }),
    deltaScope: scopeDigest({ operation: operationId, tenant, delta: true }),
  };
}

/** What a keyed request runs once it is counted: a route's handler, or the 404/405 of a path. */
type Target = { route: KeyedRoute } | { refuse: (req: Request) => ApiError };

async function run(target: Target, req: Request, ctx: RequestContext, principal: Principal) {
  if ("refuse" in target) throw target.refuse(req);
  const { route } = target;
  return runOnce(route, req, ctx, principal, async () => {
    const input = parseInput(route as AnyRoute, req);
    const result = await route.handler({
      ...input,
      principal,
      origin: originOf(req, ctx, principal),
      ...tokenScopesOf(route.operationId, principal, input.params, input.query),
    });
    return answerOf(route as AnyRoute, result);
  });
}

/**
 * The life of every keyed request, top to bottom: authenticate (key, company and project read
 * fresh), count it with its audit entry (nothing runs for a request the window refuses), check
 * the scope, read the body, run the handler, record the outcome, answer. Every failure takes the
 * one path at the end: recorded, then rendered.
 */
async function serveKeyed(
  target: Target,
  dialects: readonly ErrorDialect[],
  req: Request,
  res: Response,
): Promise<void> {
  const ctx = contextOf(res);
  let subject: AuditSubject | null = null;
  let admitted = false;
  let recorded = false;
  try {
    const auth = await authenticate(req, ctx.api);
    if (!auth.ok) {
      subject = auth.subject;
      throw auth.error;
    }
    const { principal } = auth;
    subject = principal;
    await admit(res, principal, auth.counter, requestEntry(req, ctx, principal));
    admitted = true;
    // Checked once counted: a key looping on an endpoint it may not call spends its own window
    // (and meets the remembered 429) like any other request, instead of reading for free.
    const scope = "route" in target ? target.route.scope : undefined;
    if (scope && !principal.scopes.includes(scope)) {
      throw new ApiError(
        "insufficient_scope",
        `This key lacks the "${scope}" scope this endpoint needs; use a key created with it.`,
      );
    }
    await readBody(req, res);
    const answer = await run(target, req, ctx, principal);
    await record(req, ctx, {
      subject,
      admitted,
      status: answer.status,
      refusedChange: answer.refusedChange,
    });
    recorded = true;
    await sendAnswer(res, answer);
  } catch (err) {
    const error = answerableError(err, req, ctx);
    if (!recorded)
      await record(req, ctx, {
        subject,
        admitted,
        status: error.status,
        reason: error.message,
        refusedChange: error.refusedChange,
      });
    renderError(req, res, error, dialects, err);
  }
}

export const keyedHandler =
  (route: KeyedRoute, dialects: readonly ErrorDialect[]) => (req: Request, res: Response) =>
    serveKeyed({ route }, dialects, req, res);

/**
 * A keyed path's refusal (unknown path, method not allowed): authenticated, counted and recorded
 * like any request.
 */
export const keyedRefusal =
  (refuse: (req: Request) => ApiError, dialects: readonly ErrorDialect[]) =>
  (req: Request, res: Response) =>
    serveKeyed({ refuse }, dialects, req, res);

/** A public route: validated and answered, neither authenticated, counted nor recorded. */
export const publicHandler =
  (route: AnyRoute) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      const input = parseInput(route, req);
      const result = await (route.handler as (input: unknown) => Promise<unknown>)(input);
      await sendAnswer(res, answerOf(route, result));
    } catch (err) {
      next(err);
    }
  };
