import type { Request } from "express";
import type { AuditOrigin } from "../repos/auditLogs";
import type { Principal, ProjectPrincipal } from "./context";
import type { ErrorCode, RefusedChangeNote } from "./errors";
import { z } from "./zod";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** What a handler may return instead of a plain JSON body. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly options: {
      status?: number;
      contentType?: string;
      headers?: Record<string, string>;
      /** A protected user's change left out of an answered request: audited as privileged. */
      refusedChange?: RefusedChangeNote;
    } = {},
  ) {}
}

type Obj = z.ZodObject;
export type Out<S> = S extends z.ZodType ? z.output<S> : S extends undefined ? undefined : unknown;

interface ParsedInput<Q, P, B> {
  query: Out<Q>;
  params: Out<P>;
  body: Out<B>;
  req: Request;
}

/**
 * What a keyed route's handler gets: the validated input, its caller, and what the kernel derives.
 */
export interface KeyedInput<Q, P, B, C extends Principal = Principal> extends ParsedInput<Q, P, B> {
  principal: C;
  /** Who changes something through this request, for the change's own audit entry. */
  origin: AuditOrigin;
  /**
   * What a page token of this request is bound to: the operation, the tenant, the path and every
   * filter.
   */
  tokenScope: string;
  /** What a delta token of this operation is bound to: the operation and the tenant. */
  deltaScope: string;
}

interface Common<Q, P, B> {
  method: Method;
  /** OpenAPI form, e.g. `/v1/findings/{id}/comments`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  query?: Q;
  params?: P;
  body?: B;
  /** An example of the body, shown in the document (the OpenAPI tests check it against `body`). */
  bodyExample?: unknown;
  /**
   * Rules between parameters that OpenAPI cannot express, listed in the description; breaking one
   * is a 400.
   */
  rules?: string[];
  success: {
    status?: number;
    description: string;
    schema: z.ZodType;
    /**
     * An example of the success body (checked against `schema` by the OpenAPI tests); none for a
     * 204.
     */
    example?: unknown;
    contentType?: string;
    /**
     * Other media types of the same response (e.g. `text/csv`), each with its schema and example.
     */
    alternatives?: Record<string, { schema: z.ZodType; example: unknown }>;
    /** Further success statuses with the same body, each with its own description. */
    otherStatuses?: Record<number, string>;
    /** Headers of the success response worth documenting (name → description): `Location`. */
    headers?: Record<string, string>;
  };
  /** The operation's own error codes; the kernel adds those of authentication and limits. */
  errors: ErrorCode[];
}

/**
 * One endpoint: its schemas, its documentation and its handler, in one place. The same
 * definition mounts the Express route and registers the OpenAPI operation, so the served
 * document cannot drift from what the code accepts.
 */
export interface KeyedRoute<
  Q = unknown,
  P = unknown,
  B = unknown,
  C extends Principal = Principal,
> extends Common<Q, P, B> {
  public?: false;
  /** A scope the key must hold (company API). */
  scope?: string;
  /**
   * A write that takes `Idempotency-Key` (http/idempotency.ts). `committed`: the answer for the
   * change a stopped first try committed (the id its audit entry names); without it the write
   * runs again, which must then answer as the first try would have.
   */
  idempotency?: {
    committed?: (id: string, principal: Principal, req: Request) => Promise<unknown>;
  };
  handler: (input: KeyedInput<Q, P, B, C>) => Promise<unknown>;
}

/** Served without a key, neither rate limited nor audited (service metadata, the documents). */
export interface PublicRoute<Q = unknown, P = unknown, B = unknown> extends Common<Q, P, B> {
  public: true;
  scope?: undefined;
  handler: (input: ParsedInput<Q, P, B>) => Promise<unknown>;
}

export type AnyRoute =
  | KeyedRoute<Obj | undefined, Obj | undefined, z.ZodType | undefined>
  | PublicRoute<Obj | undefined, Obj | undefined, z.ZodType | undefined>;

export function defineRoute<
  Q extends Obj | undefined = undefined,
  P extends Obj | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(definition: KeyedRoute<Q, P, B> | PublicRoute<Q, P, B>): AnyRoute {
  return definition;
}

/** A findings key's route: its handler gets the key's project, which authentication found live. */
export function defineProjectRoute<
  Q extends Obj | undefined = undefined,
  P extends Obj | undefined = undefined,
>(definition: KeyedRoute<Q, P, undefined, ProjectPrincipal>): AnyRoute {
  return defineRoute<Q, P>({
    ...definition,
    handler: (input) =>
      definition.handler({ ...input, principal: projectPrincipal(input.principal) }),
  });
}

function projectPrincipal(principal: Principal): ProjectPrincipal {
  if (!principal.projectId || !principal.project)
    throw new Error("a findings route served to a key without a project");
  return principal as ProjectPrincipal;
}

export const expressPath = (openapiPath: string) => openapiPath.replace(/\{(\w+)\}/g, ":$1");

/** The codes the kernel may answer on any keyed operation, besides the operation's own. */
export function kernelErrors(route: AnyRoute): ErrorCode[] {
  if (route.public) return [];
  return [
    "unauthorized",
    "forbidden",
    ...(route.scope ? (["insufficient_scope"] as const) : []),
    ...(route.idempotency ? (["idempotency_key_in_use", "idempotency_key_reused"] as const) : []),
    "rate_limited",
    "internal",
  ];
}

/** What goes back for a handler's result. */
export interface Answer {
  status: number;
  body: unknown;
  /** Set for a body sent as it is (CSV, SCIM); JSON pages otherwise. */
  contentType?: string;
  headers: Record<string, string>;
  refusedChange?: RefusedChangeNote;
}

export function answerOf(route: AnyRoute, result: unknown): Answer {
  const { body, options } = result instanceof Reply ? result : new Reply(result);
  return {
    status: options.status ?? route.success.status ?? 200,
    body,
    contentType: options.contentType ?? route.success.contentType,
    headers: options.headers ?? {},
    ...(options.refusedChange ? { refusedChange: options.refusedChange } : {}),
  };
}
