// Writes docs/errors.md, the error catalogue, from the code's closed lists (after npm run build):
// node scripts/errorCatalogue.mjs (npm run docs:errors); with --check it only fails when the
// committed file differs, which the test command runs. One table per API: the codes its served
// OpenAPI document lists, with the status, "when" and "what to do" of src/http/errors.ts's ERRORS
// (SCIM: src/scim/scimErrors.ts's SCIM_TYPES).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { servedDocuments } from "./servedDocuments.mjs";

const require = createRequire(import.meta.url);
const { ERRORS } = require("../lib/http/errors.js");
const { SCIM_TYPES } = require("../lib/scim/scimErrors.js");
const {
  PLATFORM_BAD_REQUEST,
  PLATFORM_HEADERS_TOO_LARGE,
} = require("../lib/http/openapiErrors.js");

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), "../../docs/errors.md");
const SCIM = "/scim/v2";
// Answered on any path by the app itself (http/createApp.ts: an unknown path, another method; the
// body rules of http/context.ts), so an operation's own list in the document need not name them.
const EVERY_PATH = [
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
];
// The SCIM error body carries these envelope codes as a scimType (scim/scimErrors.ts, scimTypeOf).
const AS_SCIM_TYPE = ["invalid_request", "conflict"];

/** The error codes of a document's operations whose path does (or does not) start with SCIM's. */
function codesOf(document, scim) {
  const codes = new Set(EVERY_PATH);
  for (const [path, operations] of Object.entries(document.paths))
    if (path.startsWith(SCIM) === scim)
      for (const operation of Object.values(operations))
        for (const response of Object.values(operation.responses ?? {}))
          for (const media of Object.values(response.content ?? {}))
            for (const name of Object.keys(media.examples ?? {}))
              if (name in ERRORS) codes.add(name);
  return Object.keys(ERRORS).filter((code) => codes.has(code));
}

const cell = (text) => text.replace(/\|/g, "\\|");
const row = (cells) => `| ${cells.map(cell).join(" | ")} |`;

/** A code's texts for one API (`findings`, `scim`), or the shared ones. */
const textsOf = (code, api) => ({ ...ERRORS[code], ...ERRORS[code].per?.[api] });

function envelopeTable(codes, api) {
  return [
    row(["status", "code", "when", "what to do"]),
    "|---|---|---|---|",
    ...codes.map((code) => {
      const { status, when, todo } = textsOf(code, api);
      return row([String(status), `\`${code}\``, when, todo]);
    }),
  ].join("\n");
}

function scimTable(codes) {
  const rows = [
    ...Object.entries(SCIM_TYPES).map(([type, entry]) => ({ ...entry, type: `\`${type}\`` })),
    ...codes
      .filter((code) => !AS_SCIM_TYPE.includes(code))
      .map((code) => ({ ...textsOf(code, "scim"), type: "(none)" })),
  ].sort((a, b) => a.status - b.status);
  return [
    row(["status", "scimType", "when", "what to do"]),
    "|---|---|---|---|",
    ...rows.map(({ status, type, when, todo }) => row([String(status), type, when, todo])),
  ].join("\n");
}

async function render() {
  const documents = Object.fromEntries(
    (await servedDocuments()).map(({ name, text }) => [name, JSON.parse(text)]),
  );
  return `# Error catalogue

Every error either API answers, with what to do about it. This page is generated from the APIs'
code (the closed list of codes and the lists of the served OpenAPI documents), so it cannot
drift from what the APIs answer; edits here are overwritten.

Outside SCIM, every error is JSON in one envelope, and \`code\` is the field to branch on (the
\`message\` is for people and may change):

\`\`\`json
{ "error": { "code": "rate_limited", "message": "…", "request_id": "req_6f1c2a9be04d4d0f9a3c81e5b7d20c44" } }
\`\`\`

\`request_id\` is also the \`X-Request-Id\` header: quote it to support. A \`seat-capacity-exhausted\`
error also carries \`seat_capacity\` and \`seats_used\`. Retrying in general (\`Retry-After\`,
backoff, tokens): [api-behaviour.md](api-behaviour.md#retries).

## Findings export API

${envelopeTable(codesOf(documents.findings, false), "findings")}

## Company API (\`/v1\`)

${envelopeTable(codesOf(documents.company, false), "company")}

## SCIM 2.0 (\`/scim/v2\` of the company API)

Errors under \`/scim/v2\` are SCIM error bodies (RFC 7644 §3.12, \`application/scim+json\`):

\`\`\`json
{ "schemas": ["urn:ietf:params:scim:api:messages:2.0:Error"], "status": "409", "scimType": "uniqueness", "detail": "…" }
\`\`\`

\`detail\` is what the identity provider shows in its log; \`X-Request-Id\` is set as on \`/v1\`.

${scimTable(codesOf(documents.company, true))}

## Answered before the API runs

These come from the platform, not from the APIs: no envelope, no \`X-Request-Id\`.

- **400, malformed JSON.** ${PLATFORM_BAD_REQUEST.description}
- **415, a body in another charset than UTF-8** (\`Content-Type: application/json;
  charset=latin1\`): the platform's body parser answers \`415\` with an HTML page before the API
  runs. Send JSON in UTF-8 (\`charset=utf-8\` or no charset). Other charsets the platform
  reads (\`utf-16\`) and other media types (\`application/scim+json\`) reach the API, which
  answers its own \`415\`; bytes that are not UTF-8 get its \`400\` (\`invalidSyntax\` in SCIM).
- **431, request too long.** ${PLATFORM_HEADERS_TOO_LARGE.description}
- **413, a body over 32 MiB.** The platform's request limit: its own page, not the envelope
  (bodies over 64 KiB and up to that limit get the API's \`413 payload_too_large\`).
- **403, a compressed body, in production.** The load balancer in front of both APIs refuses any
  request with a \`Content-Encoding\` body with its own \`403\` page, before the API; the API's
  \`415\` is what answers where that edge is not in front (the local stack).
`;
}

const text = await render();
if (process.argv.includes("--check")) {
  if (readFileSync(OUT, "utf8") !== text) {
    console.error(
      "docs/errors.md is stale: regenerate it with npm run docs:errors (after a build).",
    );
    process.exit(1);
  }
  console.log("docs/errors.md matches the code's error lists.");
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT}`);
}
