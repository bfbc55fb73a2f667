// Both APIs' OpenAPI documents exactly as the apps serve them (from the built lib/), for
// `redocly lint` (writeOpenapi.mjs) and the reference pages (buildDocs.mjs).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * [{ name: "findings" | "company", text }]: fetched through each app, byte for byte what it serves.
 */
export async function servedDocuments() {
  const { FINDINGS_API } = require("../lib/findings/app.js");
  const { COMPANY_API } = require("../lib/company/app.js");
  const { createApp } = require("../lib/http/createApp.js");
  const documents = [];
  for (const [name, config] of [
    ["findings", FINDINGS_API],
    ["company", COMPANY_API],
  ]) {
    const server = createApp(config).listen(0, "127.0.0.1");
    await new Promise((done) => server.once("listening", done));
    try {
      const res = await fetch(`http://127.0.0.1:${server.address().port}/v1/openapi.json`);
      if (!res.ok) throw new Error(`${name}: /v1/openapi.json answered ${res.status}`);
      documents.push({ name, text: await res.text() });
    } finally {
      server.close();
    }
  }
  return documents;
}
