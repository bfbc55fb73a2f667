import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { KeyApi } from "../lib/apiKeyFormat";
import { bodyGuard, requestContext } from "./context";
import { docsPage, serveDocsPage } from "./docsPage";
import { errorHandler, type ErrorDialect } from "./errorHandler";
import { ApiError } from "./errors";
import { getOpenApiDocument } from "./getOpenApiDocument";
import { getServiceMetadata } from "./getServiceMetadata";
import { buildDocument, type ApiDescription } from "./openapi";
import { keyedHandler, keyedRefusal, publicHandler } from "./pipeline";
import { expressPath, type AnyRoute } from "./route";

export interface ApiConfig extends ApiDescription {
  api: KeyApi;
  routes: AnyRoute[];
}

/** `GET /v1`, `GET /v1/openapi.json` and `GET /v1/docs`, which every API serves without a key. */
function publicRoutes(config: ApiConfig, document: () => Record<string, unknown>): AnyRoute[] {
  return [getServiceMetadata(config), getOpenApiDocument(config, document), docsPage(config.api)];
}

function notAllowed(allowed: string[]) {
  const allow = [...new Set(allowed.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])))].join(
    ", ",
  );
  return (req: Request) =>
    new ApiError(
      "method_not_allowed",
      `${req.method} is not supported on this path; use ${allow}.`,
      { Allow: allow },
    );
}

const notFound = (req: Request) =>
  new ApiError(
    "not_found",
    `No endpoint ${req.method} ${req.path.slice(0, 200)}; see /v1/openapi.json.`,
  );

/** Mounts routes, then a 405 for any other method on their paths. */
function mount(app: Express, routes: AnyRoute[], dialects: readonly ErrorDialect[]): void {
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    const path = expressPath(route.path);
    app[route.method](path, route.public ? publicHandler(route) : keyedHandler(route, dialects));
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    const refuse = notAllowed(methods);
    const publicPath = routes.some((r) => r.public && expressPath(r.path) === path);
    const handler = publicPath
      ? (req: Request, _res: Response, next: NextFunction) => next(refuse(req))
      : keyedRefusal(refuse, dialects);
    app.route(path).all(handler);
  }
}

/**
 * The Express app of one API. Public routes answer without a key; every other request (unknown
 * paths included) goes through the keyed pipeline (pipeline.ts), so a keyed 404 is counted and
 * recorded like any other keyed request.
 */
export function createApp(config: ApiConfig): Express {
  let cached: Record<string, unknown> | undefined;
  const publics = publicRoutes(
    config,
    () => (cached ??= buildDocument(config, [...publics, ...config.routes])),
  );

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(requestContext(config.api), bodyGuard);
  // The reference page goes out compressed and cacheable, which the JSON route kernel does not do.
  app.get("/v1/docs", serveDocsPage(config.api));
  const dialects = config.errorDialects ?? [];
  mount(app, publics, dialects);
  mount(app, config.routes, dialects);
  app.use(keyedRefusal(notFound, dialects));
  app.use(errorHandler(dialects));
  return app;
}
