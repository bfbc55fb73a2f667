// A file name says its layer's job, so one name in two layers of src/ (repos/users.ts beside
// scim/users.ts) sends a reader to the wrong file (docs/development.md, "Repository layout").
// The adapters' parallel files of one role are the one convention: each API has its app.ts,
// map.ts, schemas.ts and examples.ts. Run by `npm run lint`.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PARALLEL = new Set(["app.ts", "map.ts", "schemas.ts", "examples.ts"]);
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");

const layersByName = new Map();
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
  const relative = path.relative(src, path.join(entry.parentPath, entry.name));
  // A top-level file (index.ts, logs.ts) is a layer of its own.
  const layer = relative.split(path.sep)[0];
  const paths = layersByName.get(entry.name) ?? new Map();
  paths.set(layer, [...(paths.get(layer) ?? []), relative]);
  layersByName.set(entry.name, paths);
}

const repeated = [...layersByName].filter(([name, paths]) => paths.size > 1 && !PARALLEL.has(name));
for (const [name, paths] of repeated) {
  console.error(`${name} repeats across layers: ${[...paths.values()].flat().join(", ")}`);
}
if (repeated.length) {
  console.error("Name each file after its layer's job (docs/development.md, file names).");
  process.exit(1);
}
