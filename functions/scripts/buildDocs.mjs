// Builds the reference page each API serves at GET /v1/docs: node scripts/buildDocs.mjs (after
// tsc). One self-contained HTML file per API in lib/docs/, rendered by Redocly from the served
// OpenAPI document, and beside it <api>.csp.json: the sha256 hashes of its inline scripts, which
// src/http/docsPage.ts puts in the page's Content-Security-Policy instead of allowing every inline
// script.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { servedDocuments } from "./servedDocuments.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(FUNCTIONS_DIR, "lib", "docs");

// Redoc 3 draws "API docs by <Redocly logo>" in the sidebar and fetches that logo from its CDN
// in the reader's browser; no option turns it off. A local image keeps the attribution without
// the third-party request.
const logo = (text, width) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16"><text x="0" y="12" textLength="${width - 1}" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044D4">${text}</text></svg>`,
  ).toString("base64")}`;
const LOGOS = {
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg": logo("Redocly", 50),
  "https://cdn.redoc.ly/redoc/logo-mini.svg": logo("R", 10),
};

// Redoc asks whether its search index may run in a worker by compiling FlexSearch's source with
// Function(). The page's CSP allows no eval, so that probe only logs a violation in every reader's
// browser before Redoc falls back to searching on the page itself; answering "no" up front gives
// the same search without it (and the page needs no worker-src). docsBrowserTest.mjs checks that
// search works and that the policy blocks nothing, so a Redoc that probes differently shows there.
const SEARCH_WORKER_PROBE =
  /try\{return [\w$]+\._factory\?\?=Function\([\w$]+\),!0\}catch\{return!1\}/g;

// What a page must not contain: anything that makes the reader's browser fetch from the internet.
// (The inlined bundle mentions plenty of https:// links in text and anchors; those load nothing.)
const EXTERNAL = [
  [
    "a tag loading a remote src/href",
    /<(?:script|link|img|iframe|source|embed|object)\b[^>]*\s(?:src|href|srcset|data)\s*=\s*["']?(?:https?:)?\/\//i,
  ],
  ["a CSS url() to a remote file", /url\(\s*["']?(?:https?:)?\/\//i],
  ["a CSS @import of a remote file", /@import\s+(?:url\()?\s*["']?(?:https?:)?\/\//i],
  ["a JavaScript import from a URL", /(?:\bfrom\s*|\bimport\s*\(\s*)["'`]https?:\/\//i],
  ["Google Fonts", /fonts\.(?:googleapis|gstatic)\.com/i],
  ["a Redoc CDN asset", /cdn\.redoc\.ly\/|cdn\.redocly\.com\/redoc\//i],
];

// The CSP allows scripts by hash only: each must be an inline <script> element, hashed exactly as
// the browser will (its text between the tags, newlines normalised as the HTML parser does, UTF-8).
// Inline event handlers (onclick=…) and javascript: URLs could not be allowed that way, so a page
// with one is refused.
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
function scriptHashes(html) {
  const scripts = [...html.matchAll(SCRIPT)];
  const problems = scripts
    .filter(([, attributes]) => /\ssrc\s*=/i.test(attributes))
    .map(() => "a <script src> (the CSP allows inline scripts by hash only)");
  if (/<[a-z][^>]*\son[a-z]+\s*=/i.test(html.replace(SCRIPT, "")))
    problems.push("an inline event handler attribute (on…=)");
  if (/(?:href|src|action)\s*=\s*["']?\s*javascript:/i.test(html.replace(SCRIPT, "")))
    problems.push("a javascript: URL");
  const hashes = [
    ...new Set(
      scripts.map(
        ([, , text]) =>
          `sha256-${createHash("sha256").update(text.replace(/\r\n?/g, "\n"), "utf8").digest("base64")}`,
      ),
    ),
  ];
  return { hashes, problems };
}

const work = mkdtempSync(join(tmpdir(), "docs-"));
mkdirSync(OUT_DIR, { recursive: true });
let failed = false;
try {
  // Through the app itself, so the page documents byte-for-byte what /v1/openapi.json serves.
  for (const { name, text: document } of await servedDocuments()) {
    const input = join(work, `${name}.openapi.json`);
    const output = join(OUT_DIR, `${name}.html`);
    const cspFile = join(OUT_DIR, `${name}.csp.json`);
    writeFileSync(input, document);

    // --inlineBundle: the Redoc script goes into the page instead of a <script> from Redocly's CDN.
    // REDOCLY_TELEMETRY=off is the only switch that sets the page's disableTelemetry (an --openapi
    // option is overridden); without it readers' browsers report to Redocly from any non-local
    // host.
    const run = spawnSync(
      join(FUNCTIONS_DIR, "node_modules", ".bin", "redocly"),
      ["build-docs", input, "--inlineBundle", "--lint-config=off", "-o", output],
      {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
    if (run.status !== 0)
      throw new Error(`${name}: redocly build-docs failed\n${run.stdout}${run.stderr}`);

    let html = readFileSync(output, "utf8");
    for (const [url, local] of Object.entries(LOGOS)) html = html.replaceAll(url, local);
    html = html.replace(SEARCH_WORKER_PROBE, "return!1");
    writeFileSync(output, html);

    const problems = EXTERNAL.filter(([, pattern]) => pattern.test(html)).map(
      ([what, pattern]) => `${what}: …${html.match(pattern)[0].slice(-120)}…`,
    );
    if (!/const __redoc_options = \{[^\n]*"disableTelemetry":true/.test(html))
      problems.push("Redoc telemetry is not disabled");
    const { hashes, problems: unhashable } = scriptHashes(html);
    if (problems.length || unhashable.length) {
      failed = true;
      // never leave a page the app would serve
      rmSync(output);
      rmSync(cspFile, { force: true });
      if (problems.length)
        console.error(`✗ ${output} would load from the internet:\n  ${problems.join("\n  ")}`);
      if (unhashable.length)
        console.error(
          `✗ ${output} has scripts its Content-Security-Policy cannot allow by hash:\n  ${unhashable.join("\n  ")}`,
        );
      continue;
    }
    writeFileSync(cspFile, `${JSON.stringify({ scriptHashes: hashes }, null, 2)}\n`);
    console.log(
      `docs: ${output.slice(FUNCTIONS_DIR.length + 1)} ${(statSync(output).size / 1024).toFixed(0)} KiB, ${hashes.length} inline scripts hashed`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
