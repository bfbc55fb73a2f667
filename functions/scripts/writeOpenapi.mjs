// Writes both served OpenAPI documents to DIR (for `redocly lint`): node scripts/writeOpenapi.mjs DIR
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const { FINDINGS_API } = require("../lib/findings/app.js");
const { COMPANY_API } = require("../lib/company/app.js");
const { createApp } = require("../lib/http/createApp.js");

const dir = process.argv[2] ?? "openapi";
mkdirSync(dir, { recursive: true });
for (const [name, config] of [["findings", FINDINGS_API], ["company", COMPANY_API]]) {
  // Fetch through the app itself so the linted document is byte-for-byte the served one.
  const app = createApp(config);
  const server = app.listen(0);
  const { port } = server.address();
  const res = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`);
  writeFileSync(join(dir, `${name}.openapi.json`), await res.text());
  server.close();
}
