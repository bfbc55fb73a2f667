import type { NextFunction, Request, Response } from "express";
import { declaresBody } from "./bodyGuard";
import { contextOf, type Principal, type RequestContext } from "./context";
import { ApiError, invalidRequest, type ErrorCode } from "./errors";
import { recordRequest } from "./record";
import { sendJson } from "./sendJson";
import { z } from "./zod";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** What a handler may return instead of a plain JSON body. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly options: { status?: number; contentType?: string; headers?: Record<string, string> } = {},
  ) {}
}

type Obj = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<Q, P, B> {
  query: Out<Q>;
  params: Out<P>;
  body: Out<B>;
  ctx: RequestContext;
  /** Present on every keyed route; public routes get `undefined`. */
  principal: Principal | undefined;
  req: Request;
}

/**
 * One endpoint: its schemas, its documentation and its handler, in one place. The same
 * definition mounts the Express route and registers the OpenAPI operation, so the served
 * document cannot drift from what the code accepts.
 */
export interface RouteDefinition<Q extends Obj | undefined, P extends Obj | undefined, B extends z.ZodType | undefined> {
  method: Method;
  /** OpenAPI form, e.g. `/v1/findings/{id}/comments`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** Public routes need no key and are neither rate limited nor audited. */
  public?: boolean;
  /** A scope the key must hold (company API). */
  scope?: string;
  query?: Q;
  params?: P;
  body?: B;
  /** An example of the body, shown in the document (the OpenAPI tests check it against `body`). */
  bodyExample?: unknown;
  /**
   * Rules between parameters that OpenAPI cannot express (`to` after `from`, one filter at a
   * time): listed in the operation's description. Breaking one is a 400 `invalid_request`.
   */
  rules?: string[];
  success: {
    status?: number;
    description: string;
    schema: z.ZodType;
    /** An example of the success body (checked against `schema` by the OpenAPI tests); none for a 204. */
    example?: unknown;
    contentType?: string;
    /** Other media types of the same response (e.g. `text/csv`), each with its schema and example. */
    alternatives?: Record<string, { schema: z.ZodType; example: unknown }>;
    /** Further success statuses with the same body, each with its own description (e.g. 200 for a replace after a 201). */
    otherStatuses?: Record<number, string>;
    /** Headers of the success response worth documenting (name → description), e.g. `Location`. */
    headers?: Record<string, string>;
  };
  /** Error codes this operation can answer with, for the document. */
  errors: ErrorCode[];
  handler: (input: HandlerInput<Q, P, B>) => Promise<unknown>;
}

export type AnyRoute = RouteDefinition<Obj | undefined, Obj | undefined, z.ZodType | undefined>;

export function defineRoute<Q extends Obj | undefined = undefined, P extends Obj | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  definition: RouteDefinition<Q, P, B>,
): AnyRoute {
  return definition;
}

export const expressPath = (openapiPath: string) => openapiPath.replace(/\{(\w+)\}/g, ":$1");

/** `query parameter "limit": …` — names the offending parameter, never echoes long input. */
function describeIssues(location: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        const noun = issue.keys.length > 1 ? "parameters" : "parameter";
        return `Unknown ${location} ${noun} ${issue.keys.map((k) => `"${k}"`).join(", ")}.`;
      }
      const name = issue.path.length ? issue.path.join(".") : location;
      return `Invalid ${location} parameter "${name}": ${issue.message}.`.replace(/\.\.$/, ".");
    })
    .join(" ");
}

/** With the simple query parser, `?limit=5&limit=6` arrives as an array: name it, never guess. */
function refuseRepeated(query: Record<string, unknown>): void {
  const repeated = Object.keys(query).filter((name) => Array.isArray(query[name]));
  if (repeated.length) {
    throw invalidRequest(`Query parameter ${repeated.map((n) => `"${n.slice(0, 100)}"`).join(", ")} was given more than once; send each parameter at most once.`);
  }
}

function parsePart<S extends z.ZodType | undefined>(schema: S, value: unknown, location: string): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw invalidRequest(describeIssues(location, result.error));
  return result.data as Out<S>;
}

/** The Express handler of a definition: validate once, call, record, send. */
export function handlerOf(route: AnyRoute) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const ctx = contextOf(res);
      if (route.scope && !ctx.principal?.scopes.includes(route.scope)) {
        throw new ApiError("insufficient_scope", `This key lacks the "${route.scope}" scope this endpoint needs; use a key created with it.`);
      }
      refuseRepeated(req.query);
      // A body in another format (a form, plain text) is refused as such, not read as missing fields.
      if (route.body && declaresBody(req) && !req.is(["application/json", "application/*+json"])) {
        throw new ApiError("unsupported_media_type", "Send the request body as JSON with `Content-Type: application/json`.");
      }
      const input = {
        query: parsePart(route.query, req.query, "query"),
        params: parsePart(route.params, req.params, "path"),
        body: parsePart(route.body, req.body, "body"),
        ctx,
        principal: ctx.principal,
        req,
      };
      const result = await route.handler(input);
      const reply = result instanceof Reply ? result : new Reply(result);
      const status = reply.options.status ?? route.success.status ?? 200;
      const instead = await recordRequest(req, res, status);
      if (instead) throw instead;
      res.status(status).set(reply.options.headers ?? {});
      const contentType = reply.options.contentType ?? route.success.contentType;
      if (status === 204) res.end();
      else if (contentType) res.type(contentType).send(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
      else await sendJson(res, reply.body);
    } catch (err) {
      next(err);
    }
  };
}
