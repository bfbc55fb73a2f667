// Writes both served OpenAPI documents to DIR (for `redocly lint`): node scripts/writeOpenapi.mjs
// DIR
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { servedDocuments } from "./servedDocuments.mjs";

const dir = process.argv[2] ?? "openapi";
mkdirSync(dir, { recursive: true });
for (const { name, text } of await servedDocuments())
  writeFileSync(join(dir, `${name}.openapi.json`), text);
