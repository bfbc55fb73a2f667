// Builds the reference page each API serves at GET /v1/docs: node scripts/buildDocs.mjs (after tsc).
// One self-contained HTML file per API in lib/docs/, rendered by Redocly from the served OpenAPI document.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = join(FUNCTIONS_DIR, "lib", "docs");
import { servedDocuments } from "./servedDocuments.mjs";

// Redoc 3 draws "API docs by <Redocly logo>" in the sidebar and fetches that logo from its CDN
// in the reader's browser; no option turns it off. A local image keeps the attribution without
// the third-party request.
const logo = (text, width) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16"><text x="0" y="12" textLength="${width - 1}" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044D4">${text}</text></svg>`,
  ).toString("base64")}`;
const LOGOS = { "https://cdn.redoc.ly/redoc/logo-mini-full.svg": logo("Redocly", 50), "https://cdn.redoc.ly/redoc/logo-mini.svg": logo("R", 10) };

// What a page must not contain: anything that makes the reader's browser fetch from the internet.
// (The inlined bundle mentions plenty of https:// links in text and anchors; those load nothing.)
const EXTERNAL = [
  ["a tag loading a remote src/href", /<(?:script|link|img|iframe|source|embed|object)\b[^>]*\s(?:src|href|srcset|data)\s*=\s*["']?(?:https?:)?\/\//i],
  ["a CSS url() to a remote file", /url\(\s*["']?(?:https?:)?\/\//i],
  ["a CSS @import of a remote file", /@import\s+(?:url\()?\s*["']?(?:https?:)?\/\//i],
  ["a JavaScript import from a URL", /(?:\bfrom\s*|\bimport\s*\(\s*)["'`]https?:\/\//i],
  ["Google Fonts", /fonts\.(?:googleapis|gstatic)\.com/i],
  ["a Redoc CDN asset", /cdn\.redoc\.ly\/|cdn\.redocly\.com\/redoc\//i],
];

const work = mkdtempSync(join(tmpdir(), "docs-"));
mkdirSync(OUT_DIR, { recursive: true });
let failed = false;
try {
  // Through the app itself, so the page documents byte-for-byte what /v1/openapi.json serves.
  for (const { name, text: document } of await servedDocuments()) {
    const input = join(work, `${name}.openapi.json`);
    const output = join(OUT_DIR, `${name}.html`);
    writeFileSync(input, document);

    // --inlineBundle: the Redoc script goes into the page instead of a <script> from Redocly's CDN.
    // REDOCLY_TELEMETRY=off is the only switch that sets the page's disableTelemetry (an --openapi
    // option is overridden); without it readers' browsers report to Redocly from any non-local host.
    const run = spawnSync(
      join(FUNCTIONS_DIR, "node_modules", ".bin", "redocly"),
      ["build-docs", input, "--inlineBundle", "--lint-config=off", "-o", output],
      { encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
    );
    if (run.status !== 0) throw new Error(`${name}: redocly build-docs failed\n${run.stdout}${run.stderr}`);

    let html = readFileSync(output, "utf8");
    for (const [url, local] of Object.entries(LOGOS)) html = html.replaceAll(url, local);
    writeFileSync(output, html);

    const problems = EXTERNAL.filter(([, pattern]) => pattern.test(html)).map(([what, pattern]) => `${what}: …${html.match(pattern)[0].slice(-120)}…`);
    if (!/const __redoc_options = \{[^\n]*"disableTelemetry":true/.test(html)) problems.push("Redoc telemetry is not disabled");
    if (problems.length) {
      failed = true;
      rmSync(output); // never leave a page the app would serve
      console.error(`✗ ${output} would load from the internet:\n  ${problems.join("\n  ")}`);
      continue;
    }
    console.log(`docs: ${output.slice(FUNCTIONS_DIR.length + 1)} ${(statSync(output).size / 1024).toFixed(0)} KiB`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
