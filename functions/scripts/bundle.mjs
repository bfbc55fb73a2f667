// The deployed code: node scripts/bundle.mjs (the last step of `npm run build`, after tsc).
//
// Bundles each file of src/functions/ (the functions of one trigger kind) with esbuild into
// lib/bundle/<file>.mjs: our code and its pure-JavaScript dependencies (firebase-functions, the
// Admin SDK, express, zod…), split into ES module chunks, so an instance reads and compiles a few
// files instead of hundreds of small ones, and at start-up only what start-up runs: each
// function's handler or app, which src/functions/ loads by `await import()`, is in chunks of its
// own, loaded at its first call. Kept external, installed by `npm ci` as before: the libraries
// that read files next to their own code at run time (the Firestore client and google-gax load
// their .proto and JSON descriptors from disk, grpc its own) and Cloud Storage, which only signing
// loads. Then writes lib/bundle/index.js, the package's `main` (CommonJS, which require()s the ES
// modules): an instance of a function loads only that function's bundle (FUNCTION_TARGET, set by
// Cloud Run functions and by the Functions emulator for each worker); without it (the deploy
// tooling's discovery) it loads them all. Prints each bundle's size (docs/benchmarks.md, "Cold
// start").
import * as esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deferredFile, EXTERNAL } from "./bundleExternal.mjs";

// The package's main require()s ES modules: the predeploy build and the CLI's discovery of the
// functions run on the operator's Node, which must load them (Node 20.19+, 22.12+, 23+).
if (process.features.require_module !== true) {
  console.error(
    `Node ${process.version} cannot require() ES modules: build and deploy with Node 24`,
  );
  process.exit(1);
}
const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = join(FUNCTIONS_DIR, "src", "functions");
// Two levels below the package, like the tsc output: src/http/docsPage.ts finds lib/docs from it.
const OUT_DIR = join(FUNCTIONS_DIR, "lib", "bundle");

// Loaded at their first use rather than at start-up: firebase-functions' https and identity
// providers load the first two at start-up for callable and blocking-function tokens, its
// Firestore provider loads the third (and with it the external Firestore client) to decode an
// event, and our Admin SDK getters import all three, yet an API request authenticated by key, a
// signed-out call and a trigger before its first event never need them (docs/benchmarks.md,
// "Cold start": 50 ms and more of each start).
const DEFERRED = ["firebase-admin/auth", "firebase-admin/app-check", "firebase-admin/firestore"];
const requireHere = createRequire(import.meta.url);

/**
 * Each deferred module as a stand-in whose exports are getters that require its file once (Node
 * loads an ES module without top-level await through require(); the file's imports are the shared
 * chunks already loaded, so there is one firebase-admin app registry).
 */
const deferPlugin = {
  name: "defer",
  setup(build) {
    const filter = new RegExp(`^(${DEFERRED.join("|")})$`);
    build.onResolve({ filter }, ({ path }) => ({ path, namespace: "deferred" }));
    build.onResolve({ filter: /^deferred:/ }, ({ path }) => ({
      path: path.slice("deferred:".length),
      namespace: "deferred-file",
    }));
    build.onResolve({ filter: /^\.\/deferred-/ }, ({ path }) => ({ path, external: true }));
    build.onLoad({ filter: /.*/, namespace: "deferred-file" }, ({ path }) => ({
      resolveDir: FUNCTIONS_DIR,
      // Its resolved file, not its name (the stand-in); whole, so that reading none of its exports
      // here runs none of their getters (the Firestore client's `v1` loads google-gax).
      contents: `module.exports = require(${JSON.stringify(requireHere.resolve(path))});`,
    }));
    build.onLoad({ filter: /.*/, namespace: "deferred" }, ({ path }) => ({
      resolveDir: FUNCTIONS_DIR,
      // A failed load stays failed in this process (Node keeps an ES module that threw in its
      // errored state), so the instance ends itself after answering: the platform starts another.
      contents: `let mod;
const load = () => {
  if (mod) return mod;
  try {
    return (mod = require(${JSON.stringify(`./${deferredFile(path)}`)}).default);
  } catch (err) {
    console.error("Could not load ${path}; this instance stops in 2 s.", err);
    setTimeout(() => process.exit(1), 2000).unref?.();
    process.exitCode = 1;
    throw err;
  }
};
for (const name of ${JSON.stringify(Object.keys(requireHere(path)))}) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
}
`,
    }));
  },
};

/**
 * Packages resolve as under Node's require() (their CommonJS builds, the ones the tests and the
 * tsc output run), not their ESM builds, though our modules reach them by `import`.
 */
const requireResolution = {
  name: "require-resolution",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, kind, resolveDir, importer }) =>
      kind === "import-statement" || kind === "dynamic-import"
        ? build.resolve(path, { kind: "require-call", resolveDir, importer })
        : undefined,
    );
  },
};

// ES modules, split: each entry holds only what its functions run at start-up, and each
// `await import()` target (a function's handler or app) goes into chunks loaded at its first
// call, so a start does not parse code only a first call runs. Shared chunks hold one copy of each
// module (firebase-admin's app registry, firebase-functions' globals). The bundled CommonJS
// dependencies require the external ones, and src/http/docsPage.ts reads __dirname.
const BANNER = `import { createRequire as __createRequire } from "node:module";
import { dirname as __pathDirname } from "node:path";
import { fileURLToPath as __fileURLToPath } from "node:url";
const require = __createRequire(import.meta.url);
const __filename = __fileURLToPath(import.meta.url);
const __dirname = __pathDirname(__filename);`;

rmSync(OUT_DIR, { recursive: true, force: true });
mkdirSync(OUT_DIR, { recursive: true });
const entries = readdirSync(SOURCES)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3));
const result = await esbuild.build({
  entryPoints: [
    ...entries.map((name) => ({ in: join(SOURCES, `${name}.ts`), out: name })),
    ...DEFERRED.map((path) => ({ in: `deferred:${path}`, out: deferredFile(path).slice(0, -4) })),
  ],
  outdir: OUT_DIR,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  platform: "node",
  target: "node24",
  format: "esm",
  tsconfig: join(FUNCTIONS_DIR, "tsconfig.json"),
  external: EXTERNAL,
  plugins: [deferPlugin, requireResolution],
  banner: { js: BANNER },
  // Readable stack traces in the logs: names kept, nothing minified.
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
});
if (result.errors.length) process.exit(1);

// Which bundle holds which function: read the way the deploy tooling reads them (a fresh process
// without FUNCTION_TARGET), which also proves that each bundle loads on its own.
const list = `const out = {}; for (const name of JSON.parse(process.argv[1])) {
  const file = "./" + name + ".mjs";
  const m = require(file);
  for (const key of Object.keys(m)) if (m[key] && m[key].__endpoint) out[key] = file;
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
  ? { ...require(own) }
  : Object.assign({}, ...[...new Set(Object.values(BUNDLES))].map((file) => require(file)));
`,
);

const kib = (file) => (statSync(join(OUT_DIR, file)).size / 1024).toFixed(0);
for (const name of entries) {
  const functions = Object.keys(bundles).filter((f) => bundles[f] === `./${name}.mjs`);
  console.log(`bundle ${name}.mjs  ${kib(`${name}.mjs`)} KiB  ${functions.join(", ")}`);
}
const chunks = readdirSync(OUT_DIR).filter((f) => /^chunk-.*\.mjs$/.test(f));
const total = chunks.reduce((sum, f) => sum + statSync(join(OUT_DIR, f)).size, 0) / 1024;
console.log(
  `chunks: ${chunks.length}, ${total.toFixed(0)} KiB, the largest ${chunks
    .map((f) => `${f} ${kib(f)} KiB`)
    .sort((a, b) => parseInt(b.split(" ")[1]) - parseInt(a.split(" ")[1]))
    .slice(0, 4)
    .join(", ")}`,
);
