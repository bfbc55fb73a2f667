import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import type { KeyApi } from "../lib/apiKeyFormat";
import { ApiError } from "./errors";
import { defineRoute, Reply, type AnyRoute } from "./route";
import { z } from "./zod";

/**
 * `GET /v1/docs`: the reference page that `scripts/buildDocs.mjs` renders from this API's
 * OpenAPI document at build time (it is generated, never committed), with the sha256 hashes of
 * its inline scripts beside it (`<api>.csp.json`) for the Content-Security-Policy.
 *
 * The page is the same for every reader and changes only with a deploy, so unlike every other
 * response it may be cached, by browsers and shared caches alike; an hour bounds how long a
 * deploy takes to reach readers, and the ETag makes the revalidation after that a 304.
 */
export const DOCS_CACHE_CONTROL = "public, max-age=3600";

/**
 * Only what the page needs: its inline scripts by hash (the theme switch, and the Redoc bundle
 * with the document; no eval: buildDocs.mjs removes Redoc's one probe for it), inline styles
 * (styled-components writes them at run time), data: images (the logos) and the data: icon font
 * of its schema trees. It fetches nothing, starts no worker, submits nothing and may not be framed.
 */
export function contentSecurityPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.map((h) => `'${h}'`).join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src data:",
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** This file runs from lib/http (and from src/http under ts-jest): two levels below the package. */
const BUILT_DOCS = path.join(__dirname, "..", "..", "lib", "docs");
const SCRIPT_HASH = /^sha256-[A-Za-z0-9+/]{43}=$/;

type Coding = "br" | "gzip" | "identity";

/**
 * br compresses the page ~15% smaller than gzip; quality 9 takes a fraction of a second, 11 several
 * seconds.
 */
const COMPRESS: Record<Exclude<Coding, "identity">, (html: Buffer) => Promise<Buffer>> = {
  br: (html) =>
    promisify(brotliCompress)(html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length },
    }),
  gzip: (html) => promisify(gzip)(html, { level: 9 }),
};

interface Page {
  html: Buffer;
  /** Content hash: the strong ETag of each coding is derived from it. */
  hash: string;
  headers: Record<string, string>;
  /** Each coding is compressed once per instance, on its first request. */
  encoded: Map<Coding, Promise<Buffer>>;
}

/** Pages already read: each is a few MB and never changes while the instance lives. */
const pages = new Map<string, Promise<Page>>();

async function readPage(dir: string, api: KeyApi): Promise<Page> {
  const [html, csp] = await Promise.all([
    readFile(path.join(dir, `${api}.html`)),
    readFile(path.join(dir, `${api}.csp.json`), "utf8"),
  ]).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT")
      throw new ApiError("not_found", "The reference page has not been built; run npm run build.");
    throw err;
  });
  const { scriptHashes } = JSON.parse(csp) as { scriptHashes?: unknown };
  if (
    !Array.isArray(scriptHashes) ||
    !scriptHashes.length ||
    !scriptHashes.every((h) => typeof h === "string" && SCRIPT_HASH.test(h))
  ) {
    throw new Error(`${api}.csp.json holds no valid script hashes; rebuild with npm run build`);
  }
  return {
    html,
    hash: createHash("sha256").update(html).digest("base64url").slice(0, 32),
    headers: {
      "Cache-Control": DOCS_CACHE_CONTROL,
      Vary: "Accept-Encoding",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": contentSecurityPolicy(scriptHashes as string[]),
    },
    encoded: new Map([["identity", Promise.resolve(html)]]),
  };
}

function pageOf(dir: string, api: KeyApi): Promise<Page> {
  const key = path.join(dir, api);
  let page = pages.get(key);
  if (!page) {
    page = readPage(dir, api);
    // A missing page is not cached, so a later build is served without a restart.
    page.catch(() => pages.delete(key));
    pages.set(key, page);
  }
  return page;
}

function encoded(page: Page, coding: Coding): Promise<Buffer> {
  let body = page.encoded.get(coding);
  if (!body) {
    body = coding === "identity" ? Promise.resolve(page.html) : COMPRESS[coding](page.html);
    body.catch(() => page.encoded.delete(coding));
    page.encoded.set(coding, body);
  }
  return body;
}

/**
 * The best coding the client accepts (`Accept-Encoding`, q-values honoured): br, then gzip, else
 * none.
 */
export function chooseCoding(acceptEncoding: string | undefined): Coding {
  const weights = new Map<string, number>();
  for (const item of (acceptEncoding ?? "").toLowerCase().split(",")) {
    const [name, ...params] = item.split(";").map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith("q="));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  const best = weight("gzip") > weight("br") ? "gzip" : "br";
  return weight(best) > 0 ? best : "identity";
}

/** `If-None-Match` (weak comparison, RFC 9110 §13.1.2) against the ETag about to be sent. */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * Serves the page: compressed by `Accept-Encoding`, a strong ETag per coding (the bytes differ),
 * 304 on a matching `If-None-Match`. Mounted ahead of the route, since the JSON route kernel
 * sends neither bytes nor 304s; a request with a query string goes on to the route, whose
 * strict schema answers 400 like every other endpoint.
 */
export function serveDocsPage(api: KeyApi, dir = BUILT_DOCS): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (Object.keys(req.query).length) return next();
    try {
      const page = await pageOf(dir, api);
      const coding = chooseCoding(req.get("accept-encoding"));
      const body = await encoded(page, coding);
      const etag = `"${page.hash}${coding === "identity" ? "" : `-${coding}`}"`;
      // Replaces the no-store every response gets (context.ts, `requestContext`).
      res.set({ ...page.headers, ETag: etag });
      if (notModified(req.get("if-none-match"), etag)) {
        res.status(304).end();
        return;
      }
      if (coding !== "identity") res.set("Content-Encoding", coding);
      res
        .status(200)
        .type("text/html; charset=utf-8")
        .set("Content-Length", String(body.length))
        .end(body);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The route: its place in the OpenAPI document, the 405 for other methods and the 400 for a query.
 */
export function docsPage(api: KeyApi, dir = BUILT_DOCS): AnyRoute {
  return defineRoute({
    method: "get",
    path: "/v1/docs",
    operationId: "getReferenceDocs",
    summary: "Human-readable reference of this API (no key required)",
    description:
      "A self-contained HTML page rendered from `/v1/openapi.json`; it loads nothing " +
      "from elsewhere. Publicly cacheable for an hour, " +
      "compressed (br or gzip) by `Accept-Encoding`, and answered with 304 when " +
      "`If-None-Match` holds its `ETag`.",
    tags: ["Service"],
    public: true,
    query: z.object({}).strict(),
    success: {
      description: "The reference page.",
      contentType: "text/html",
      schema: z.string(),
      example:
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>API ' +
        "reference</title>…</head><body>…</body></html>",
      otherStatuses: {
        304: "Not modified: `If-None-Match` holds the page's current `ETag`. No body.",
      },
      headers: {
        "Cache-Control": `\`${DOCS_CACHE_CONTROL}\`: the page is the same for everyone.`,
        ETag:
          "Strong validator of the page's content (and coding); send it back in " +
          "`If-None-Match`.",
        "Content-Security-Policy":
          "Allows the page's own inline scripts (by hash), inline styles, data: images " +
          "and fonts; nothing else.",
      },
    },
    errors: ["invalid_request", "not_found"],
    // serveDocsPage answers every valid request before this runs; kept as the uncompressed
    // page with the same headers, so the route is whole on its own.
    handler: async () => {
      const page = await pageOf(dir, api);
      return new Reply(page.html.toString("utf8"), {
        contentType: "text/html; charset=utf-8",
        headers: { ...page.headers, ETag: `"${page.hash}"` },
      });
    },
  });
}
