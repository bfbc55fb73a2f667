import { readFile } from "node:fs/promises";
import path from "node:path";
import type { KeyApi } from "../lib/apiKeyFormat";
import { ApiError } from "./errors";
import { defineRoute, Reply, type AnyRoute } from "./route";
import { z } from "./zod";

/** Pages already read: each is a few MB and never changes while the instance lives. */
const pages = new Map<KeyApi, string>();

/**
 * `GET /v1/docs`: the reference page that `scripts/buildDocs.mjs` renders from this API's
 * OpenAPI document at build time (it is generated, never committed).
 */
export function docsPage(api: KeyApi): AnyRoute {
  // This file runs from lib/http (and from src/http under ts-jest): two levels below the package.
  const file = path.join(__dirname, "..", "..", "lib", "docs", `${api}.html`);
  return defineRoute({
    method: "get",
    path: "/v1/docs",
    operationId: "getReferenceDocs",
    summary: "Human-readable reference of this API (no key required)",
    description: "A self-contained HTML page rendered from `/v1/openapi.json`; it loads nothing from elsewhere.",
    tags: ["Service"],
    public: true,
    query: z.object({}).strict(),
    success: { description: "The reference page.", contentType: "text/html", schema: z.string() },
    errors: ["invalid_request", "not_found"],
    handler: async () => {
      let html = pages.get(api);
      if (html === undefined) {
        // A missing page is not cached, so a later build is served without a restart.
        html = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
          if (err.code === "ENOENT") throw new ApiError("not_found", "The reference page has not been built; run npm run build.");
          throw err;
        });
        pages.set(api, html);
      }
      return new Reply(html, { contentType: "text/html; charset=utf-8" });
    },
  });
}
