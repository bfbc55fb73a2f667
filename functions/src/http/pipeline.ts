import express, { type NextFunction, type Request, type Response } from "express";
import { MAX_BODY_BYTES } from "../config/constants";
import { scopeDigest } from "../lib/pageToken";
import { authenticate } from "./auth";
import { contextOf, type AuditSubject, type Principal, type RequestContext } from "./context";
import { answerableError, renderError, type ErrorDialect } from "./errorHandler";
import { ApiError } from "./errors";
import { runOnce } from "./idempotency";
import { RowText } from "./paging";
import { parseInput } from "./parseInput";
import { admit, originOf, record, requestEntry } from "./record";
import { answerOf, type Answer, type AnyRoute, type KeyedRoute } from "./route";

const JSON_TYPES = ["application/json", "application/*+json"];
const rawParser = express.raw({ limit: MAX_BODY_BYTES, type: JSON_TYPES });
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The `charset` a Content-Type declares, lower-cased; JSON without one is UTF-8 (RFC 8259). */
const charsetOf = (req: Request) =>
  /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.get("content-type") ?? "")?.[1].toLowerCase();

const bodyError = (type: string, message: string) =>
  Object.assign(new SyntaxError(message), { type, status: 400 });

/**
 * Reads a JSON body as UTF-8, the only charset JSON has: another declared charset is a 415, bytes
 * that are not UTF-8 a 400 (never replaced by U+FFFD and stored). The Functions runtime parses
 * `application/json` itself (its bytes are still checked, in `rawBody`) but hands other JSON
 * media types (`application/scim+json`) over as a raw Buffer, parsed here.
 */
async function readBody(req: Request, res: Response): Promise<void> {
  if (!req.is(JSON_TYPES)) return;
  const charset = charsetOf(req);
  if (charset && charset !== "utf-8" && charset !== "utf8")
    throw new ApiError(
      "unsupported_media_type",
      "Send the request body in UTF-8 (`charset=utf-8`).",
    );
  await new Promise<void>((resolve, reject) =>
    rawParser(req, res, (err?: Error) => (err ? reject(err) : resolve())),
  );
  const body: unknown = req.body;
  const parsed = !Buffer.isBuffer(body);
  const raw = parsed ? (req as Request & { rawBody?: unknown }).rawBody : body;
  if (!Buffer.isBuffer(raw)) return;
  if (raw.length > MAX_BODY_BYTES)
    throw new ApiError("payload_too_large", "The request body is too large.");
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw bodyError("entity.encoding.invalid", "request body is not UTF-8");
  }
  if (parsed) return;
  try {
    req.body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    throw bodyError("entity.parse.failed", "malformed JSON body");
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
  const execute = async () => {
    const input = parseInput(route as AnyRoute, req);
    const result = await route.handler({
      ...input,
      principal,
      origin: originOf(req, ctx, principal),
      ...tokenScopesOf(route.operationId, principal, input.params, input.query),
    });
    return answerOf(route as AnyRoute, result);
  };
  // Only a write that takes `Idempotency-Key` looks for one; every other request just runs.
  const { idempotency } = route;
  return idempotency
    ? runOnce(route as AnyRoute, idempotency, req, ctx, principal, execute)
    : execute();
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

/** About this many characters per write: a page never exists as one string and one Buffer. */
const CHUNK = 64 * 1024;

type Page = { data: unknown[] } & Record<string, unknown>;

const isPage = (body: unknown): body is Page =>
  typeof body === "object" && body !== null && Array.isArray((body as { data?: unknown }).data);

/** Resolves once the socket takes more, or the caller is gone (then the rest is not written). */
function drained(res: Response): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const done = (open: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(open);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * Sends a JSON body. A page (`{ data: [...], ... }`) goes out row by row in chunks of about
 * 64 KiB, with the socket's back-pressure: the bytes are those of `JSON.stringify(body)`, but
 * the text is never joined into one string and one Buffer (500 findings with long checklists
 * are several MiB; sixteen of them answer at once on one instance). A RowText row, already held
 * as its text (at most MAX_ROW_TEXT), is written as it is; any other row is stringified here,
 * one at a time. Anything else is sent whole.
 */
export async function sendJson(res: Response, body: unknown): Promise<void> {
  if (!isPage(body)) {
    res.json(body);
    return;
  }
  res.type("json");
  const { data, ...rest } = body;
  let chunk = '{"data":[';
  for (let i = 0; i < data.length; i++) {
    const row = data[i];
    const text = row instanceof RowText ? row.text : (JSON.stringify(row) ?? "null");
    chunk += i ? `,${text}` : text;
    if (chunk.length >= CHUNK) {
      // A caller gone before or during the page: nothing more to write (a write would report
      // back-pressure that never clears).
      if (res.destroyed || (!res.write(chunk) && !(await drained(res)))) return;
      chunk = "";
    }
  }
  const tail = JSON.stringify(rest);
  res.end(`${chunk}]${tail === "{}" ? "}" : `,${tail.slice(1)}`}`);
}

/**
 * Sends a handler's answer: no body for a 204, a body as it is for its own media type, else JSON.
 */
export async function sendAnswer(res: Response, answer: Answer): Promise<void> {
  res.status(answer.status).set(answer.headers);
  if (answer.status === 204) res.end();
  else if (answer.contentType)
    res
      .type(answer.contentType)
      .send(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  else await sendJson(res, answer.body);
}
