import express, { type NextFunction, type Request, type Response } from "express";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  chooseCoding,
  contentSecurityPolicy,
  DOCS_CACHE_CONTROL,
  serveDocsPage,
} from "../../src/http/docsPage";

/**
 * The page's serving rules, on a small page of its own (the real one needs a build:
 * docsBrowserTest.mjs).
 */
const HASHES = [`sha256-${"a".repeat(43)}=`, `sha256-${"B".repeat(43)}=`];
const HTML = `<!DOCTYPE html><title>t</title>${"<p>reference</p>".repeat(5000)}`;
let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "docs-page-"));
  writeFileSync(path.join(dir, "findings.html"), HTML);
  writeFileSync(path.join(dir, "findings.csp.json"), JSON.stringify({ scriptHashes: HASHES }));
  const app = express();
  app.set("query parser", "simple");
  app.use((_req, res, next) => {
    res.set("Cache-Control", "no-store"); // as context.ts's requestContext does for every response
    next();
  });
  app.get("/findings", serveDocsPage("findings", dir));
  app.get("/company", serveDocsPage("company", dir));
  app.use((_req: Request, res: Response) => void res.status(418).end());
  app.use(
    (err: { status?: number }, _req: Request, res: Response, _next: NextFunction) =>
      void res.status(err.status ?? 500).end(),
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((done) => server.once("listening", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const fetchRaw = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) =>
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res
        .on("data", (c: Buffer) => chunks.push(c))
        .on("end", () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
    }).on("error", fail),
  );

describe("GET /v1/docs", () => {
  it("is publicly cacheable, never sniffed, under a policy of hashed scripts only", async () => {
    const res = await fetchRaw(`${base}/findings`, { "accept-encoding": "identity" });
    expect(res.status).toBe(200);
    expect(res.body.toString("utf8")).toBe(HTML);
    expect(res.headers).toMatchObject({
      "cache-control": DOCS_CACHE_CONTROL,
      vary: "Accept-Encoding",
      "x-content-type-options": "nosniff",
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": contentSecurityPolicy(HASHES),
    });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(contentSecurityPolicy(HASHES)).toBe(
      `default-src 'none'; script-src '${HASHES[0]}' '${HASHES[1]}'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });

  it.each([
    ["br", "gzip, deflate, br, zstd", brotliDecompressSync],
    ["gzip", "gzip", gunzipSync],
    ["gzip", "br;q=0.1, gzip;q=0.9", gunzipSync],
  ])(
    "is sent as %s for Accept-Encoding: %s, with its own ETag and a 304 for it",
    async (coding, acceptEncoding, decode) => {
      const res = await fetchRaw(`${base}/findings`, { "accept-encoding": acceptEncoding });
      expect(res.headers["content-encoding"]).toBe(coding);
      expect(Number(res.headers["content-length"])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(HTML.length / 10);
      expect(decode(res.body).toString("utf8")).toBe(HTML);
      expect(res.headers.etag).toMatch(new RegExp(`^"[A-Za-z0-9_-]{32}-${coding}"$`));

      const again = await fetchRaw(`${base}/findings`, {
        "accept-encoding": acceptEncoding,
        "if-none-match": `W/"x", ${res.headers.etag}`,
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers).toMatchObject({
        etag: res.headers.etag,
        "cache-control": DOCS_CACHE_CONTROL,
        vary: "Accept-Encoding",
      });
      // The identity page is other bytes: its validator must not match the compressed one's.
      expect(
        (await fetchRaw(`${base}/findings`, { "if-none-match": res.headers.etag! })).status,
      ).toBe(200);
    },
  );

  it("goes on to the route (its 400) when a query is sent, and answers 404 until the page is built", async () => {
    expect((await fetchRaw(`${base}/findings?x=1`)).status).toBe(418);
    const missing = await fetchRaw(`${base}/company`);
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).toBe("no-store");
    writeFileSync(path.join(dir, "company.html"), HTML);
    writeFileSync(path.join(dir, "company.csp.json"), JSON.stringify({ scriptHashes: HASHES }));
    expect((await fetchRaw(`${base}/company`)).status).toBe(200);
  });
});

describe("the coding of the page", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["deflate", "identity"],
    ["*", "br"],
    ["br;q=0, *", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["BR;Q=0.5, gzip;q=0.4", "br"],
    ["identity, gzip;q=0.5", "gzip"],
    ["gzip;q=nonsense", "identity"],
  ])("Accept-Encoding %j → %s", (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });
});
