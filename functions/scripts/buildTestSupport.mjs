// The test helpers (test/support/*.ts) as CommonJS for the bench scripts, in generated/support/:
//   node scripts/buildTestSupport.mjs   (bench.sh runs it after `npm run build`)
// Transpiled one file at a time (`npm run typecheck` checks their types), with each import of
// ../../src/… pointed at the built ../../lib/…, so a helper and the code it seeds for share one
// module instance (one Admin SDK app, one Firestore client).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = join(FUNCTIONS_DIR, "test", "support");
const OUT = join(FUNCTIONS_DIR, "generated", "support");
const ts = createRequire(import.meta.url)("typescript");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const files = readdirSync(SOURCE).filter((f) => f.endsWith(".ts"));
for (const file of files) {
  const { outputText } = ts.transpileModule(readFileSync(join(SOURCE, file), "utf8"), {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  writeFileSync(
    join(OUT, file.replace(/\.ts$/, ".js")),
    outputText.replaceAll('require("../../src/', 'require("../../lib/'),
  );
}
console.log(`test support: ${files.length} helpers in generated/support/`);
