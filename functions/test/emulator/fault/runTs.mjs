// Runs a TypeScript file in a forked process (`node runTs.mjs FILE.ts`): the sources are
// transpiled to CommonJS, not type-checked (the suite's typecheck covers them), and the output
// cached by path and modification time, so that restarting a server takes little more than
// loading it. Used to fork faultServer.ts.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const require = createRequire(import.meta.url);
const cache = join(tmpdir(), "safety-apis-fault-ts");
mkdirSync(cache, { recursive: true });
let ts;

require.extensions[".ts"] = (module, filename) => {
  const key = createHash("sha1")
    .update(`${filename}:${statSync(filename).mtimeMs}`)
    .digest("hex");
  const cached = join(cache, `${key}.js`);
  let output;
  try {
    output = readFileSync(cached, "utf8");
  } catch {
    ts ??= require("typescript");
    const compilerOptions = {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    };
    output = ts.transpileModule(readFileSync(filename, "utf8"), {
      compilerOptions,
      fileName: filename,
    }).outputText;
    writeFileSync(cached, output);
  }
  module._compile(output, filename);
};

require(process.argv[2]);
