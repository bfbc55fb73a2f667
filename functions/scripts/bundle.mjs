// The deployed code: node scripts/bundle.mjs (the last step of `npm run build`, after tsc).
//
// Bundles each file of src/functions/ (the functions of one trigger kind), as tsc compiled it to
// lib/functions/, with esbuild into lib/bundle/<file>.js: our code and its pure-JavaScript
// dependencies (firebase-functions, the Admin SDK, express, zod…) in one file each, so an
// instance reads and compiles one file instead of hundreds of small ones. Kept external, installed
// by `npm ci` as before: the libraries that read files next to their own code at run time (the
// Firestore client and google-gax load their .proto and JSON descriptors from disk, grpc its own)
// and Cloud Storage, which only signing loads. Then writes lib/bundle/index.js, the package's
// `main`: an instance of a function loads only that function's bundle (FUNCTION_TARGET, set by
// Cloud Run functions and by the Functions emulator for each worker); without it (the deploy
// tooling's discovery) it loads them all. Prints each bundle's size (docs/benchmarks.md, "Cold
// start").
import * as esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// tsc's CommonJS output, so that packages resolve as under Node's require() (their CommonJS
// builds, the ones the tests and the tsc output run), not their ESM builds.
const COMPILED = join(FUNCTIONS_DIR, "lib", "functions");
// Two levels below the package, like the tsc output: src/http/docsPage.ts finds lib/docs from it.
const OUT_DIR = join(FUNCTIONS_DIR, "lib", "bundle");
export const EXTERNAL = [
  "@google-cloud/firestore",
  "@google-cloud/storage",
  "google-gax",
  "@grpc/grpc-js",
  "@grpc/proto-loader",
];

// Loaded at their first use rather than with the bundle: firebase-functions' https and identity
// providers load these at start-up for callable and blocking-function tokens, and our Admin SDK
// getters import them too, yet an API request authenticated by key, a signed-out call and every
// trigger never need them (docs/benchmarks.md, "Cold start": 50 ms and more of each start).
const DEFERRED = ["firebase-admin/auth", "firebase-admin/app-check"];
const requireHere = createRequire(import.meta.url);

/** Each deferred module as a stand-in whose exports are getters that require it once. */
const deferPlugin = {
  name: "defer",
  setup(build) {
    const filter = new RegExp(`^(${DEFERRED.join("|")})$`);
    build.onResolve({ filter }, ({ path, namespace }) =>
      namespace === "deferred" ? undefined : { path, namespace: "deferred" },
    );
    build.onLoad({ filter: /.*/, namespace: "deferred" }, ({ path }) => ({
      resolveDir: FUNCTIONS_DIR,
      contents: `let mod;
const load = () => (mod ??= require(${JSON.stringify(path)}));
for (const name of ${JSON.stringify(Object.keys(requireHere(path)))}) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
}
`,
    }));
  },
};

rmSync(OUT_DIR, { recursive: true, force: true });
mkdirSync(OUT_DIR, { recursive: true });
const entries = readdirSync(COMPILED)
  .filter((f) => f.endsWith(".js"))
  .map((f) => f.slice(0, -3));
const result = await esbuild.build({
  entryPoints: entries.map((name) => ({ in: join(COMPILED, `${name}.js`), out: name })),
  outdir: OUT_DIR,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "cjs",
  external: EXTERNAL,
  plugins: [deferPlugin],
  // Readable stack traces in the logs: names kept, nothing minified.
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
});
if (result.errors.length) process.exit(1);

// Which bundle holds which function: read the way the deploy tooling reads them (a fresh process
// without FUNCTION_TARGET), which also proves that each bundle loads on its own.
const list = `const out = {}; for (const name of JSON.parse(process.argv[1])) {
  const m = require("./" + name + ".js");
  for (const key of Object.keys(m)) if (m[key] && m[key].__endpoint) out[key] = "./" + name + ".js";
} console.log(JSON.stringify(out));`;
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(FUNCTION_TARGET|K_SERVICE)$/.test(k)),
);
const bundles = JSON.parse(
  execFileSync(process.execPath, ["-e", list, JSON.stringify(entries)], {
    cwd: OUT_DIR,
    env,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop(),
);

// The tests import src/index.ts; the deploy runs these bundles. A function exported there but
// declared outside src/functions/ would pass the tests and be missing from the deploy (which then
// offers to delete it in production), so the two lists must agree.
const tested = execFileSync(
  process.execPath,
  ["-e", `const m = require("../index.js"); console.log(JSON.stringify(Object.keys(m).sort()))`],
  { cwd: OUT_DIR, env, encoding: "utf8" },
)
  .trim()
  .split("\n")
  .pop();
const bundled = JSON.stringify(Object.keys(bundles).sort());
if (tested !== bundled) {
  console.error(`lib/index.js exports ${tested} but the bundles declare ${bundled}`);
  process.exit(1);
}

writeFileSync(
  join(OUT_DIR, "index.js"),
  `"use strict";
// Generated by scripts/bundle.mjs: the package's main. An instance loads its function's bundle
// only (FUNCTION_TARGET); the deploy tooling's discovery, which sets none, loads every bundle.
const BUNDLES = ${JSON.stringify(bundles, null, 2)};
const target = process.env.FUNCTION_TARGET;
const own = target && Object.hasOwn(BUNDLES, target) ? BUNDLES[target] : undefined;
module.exports = own
  ? require(own)
  : Object.assign({}, ...[...new Set(Object.values(BUNDLES))].map((file) => require(file)));
`,
);

for (const name of entries) {
  const kib = statSync(join(OUT_DIR, `${name}.js`)).size / 1024;
  const functions = Object.keys(bundles).filter((f) => bundles[f] === `./${name}.js`);
  console.log(`bundle ${name}.js  ${kib.toFixed(0)} KiB  ${functions.join(", ")}`);
}
