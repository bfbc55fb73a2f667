// The deployed package installs and loads: node scripts/deployPackage.mjs (run by test.sh).
//
// Copies exactly the files `firebase deploy` uploads (firebase-tools' own directory walk with
// firebase.json's `functions.ignore` plus the names it always adds), runs `npm ci --omit=dev`
// there as Cloud Build does, then loads the package's main (lib/bundle/index.js, built by
// scripts/bundle.mjs) in a fresh process and lists the exported functions, and loads it once more
// per function as that function's instances do (FUNCTION_TARGET). Catches what only a deploy
// would: an install script that needs an ignored file, a runtime import of a dev dependency or of
// an operator tool, a missing generated file, a function its bundle lacks.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EXTERNAL } from "./bundleExternal.mjs";
import { finish } from "./checkKit.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = resolve(FUNCTIONS_DIR, "..");
const require = createRequire(import.meta.url);
const { readdirRecursive } = require("firebase-tools/lib/fsAsync");

const EXPECTED = [
  "accountIntentSweep",
  "apiKeyUsage",
  "companyApi",
  "createApiKey",
  "departmentRematch",
  "esrsS1Report",
  "findingsApi",
  "freezeEsrsS1Report",
  "groupRoleSweep",
  "kpiRollupDaily",
  "listApiKeys",
  "listAuditTrail",
  "onFindingCommentWritten",
  "onFindingFileWritten",
  "onFindingWritten",
  "onIncidentWritten",
  "refreshKpiRollup",
  "revokeApiKey",
  "roleRematch",
  "rollApiKey",
  "rosterSignIn",
  "setApiAccess",
];

const config = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8")).functions[0];
// prepareFunctionsUpload.js adds these to whatever firebase.json says.
const ignore = [
  ...(config.ignore ?? ["node_modules", ".git"]),
  "firebase-debug.log",
  "firebase-debug.*.log",
  ".runtimeconfig.json",
];
const files = (await readdirRecursive({ path: FUNCTIONS_DIR, ignoreStrings: ignore })).map((f) =>
  relative(FUNCTIONS_DIR, f.name),
);

const failures = [];
let passed = 0;
const check = (name, ok, detail = "") =>
  ok ? passed++ : failures.push(`${name}${detail ? `: ${detail}` : ""}`);

// Cloud Build runs `gcp-build`, or else `build`, over the uploaded files: our build needs src/,
// which is not uploaded (the predeploy step builds locally), so gcp-build must be the empty no-op.
const { scripts, main } = JSON.parse(readFileSync(join(FUNCTIONS_DIR, "package.json"), "utf8"));
check(
  "Cloud Build runs no build step over the upload",
  scripts["gcp-build"] === "" || !scripts.build,
  `gcp-build is ${JSON.stringify(scripts["gcp-build"])}`,
);

const leaked = files.filter(
  (f) => /^(src|test|scripts|lib\/tools)\//.test(f) || f.endsWith(".local"),
);
check(
  "no sources, tests, scripts, tools or local secrets uploaded",
  leaked.length === 0,
  leaked.slice(0, 5).join(", "),
);
check(
  "the generated reference pages are uploaded",
  files.includes("lib/docs/findings.html") && files.includes("lib/docs/company.html"),
);
const unbundled = files.filter((f) => f.startsWith("lib/") && !/^lib\/(bundle|docs)\//.test(f));
check(
  "of lib/, only the bundles and the reference pages are uploaded",
  files.includes(main) && unbundled.length === 0,
  `main ${main}; ${unbundled.slice(0, 5).join(", ")}`,
);

const stage = mkdtempSync(join(tmpdir(), "deploy-package-"));
try {
  for (const file of files) {
    mkdirSync(dirname(join(stage, file)), { recursive: true });
    copyFileSync(join(FUNCTIONS_DIR, file), join(stage, file));
  }
  let installed = true;
  try {
    execFileSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: stage,
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    });
  } catch (err) {
    installed = false;
    check(
      "npm ci --omit=dev in the uploaded files",
      false,
      String(err.stderr ?? err.message).slice(-600),
    );
  }
  if (installed) {
    passed++;
    // A fresh process with no emulator variables, as the deployed container starts.
    const script = `const m = require("./${main}"); console.log(JSON.stringify(Object.keys(m).filter((k) => m[k] && m[k].__endpoint).sort()));`;
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) =>
          !/^(FIRESTORE_EMULATOR_HOST|FIREBASE_AUTH_EMULATOR_HOST|FUNCTIONS_EMULATOR|FUNCTION_TARGET)$/.test(
            k,
          ),
      ),
    );
    const exportsOf = (target) =>
      JSON.parse(
        execFileSync(process.execPath, ["-e", script], {
          cwd: stage,
          env: target ? { ...env, FUNCTION_TARGET: target } : env,
          encoding: "utf8",
        })
          .trim()
          .split("\n")
          .pop(),
      );
    try {
      const exported = exportsOf(undefined);
      check(
        `${main} loads and exports every function`,
        JSON.stringify(exported) === JSON.stringify(EXPECTED),
        `got ${exported.join(", ")}`,
      );
      console.log(`deploy-package: ${files.length} files uploaded; exports ${exported.join(", ")}`);
      const alone = EXPECTED.filter((name) => !exportsOf(name).includes(name));
      check(
        "each function's instance (FUNCTION_TARGET) loads its own bundle, which exports it",
        alone.length === 0,
        alone.join(", "),
      );
      // What only a first call or a first use loads (each handler's and app's chunks, the
      // deferred Admin SDK files, the external packages they name: the Firestore client, Cloud
      // Storage) must be in the upload too: load every file of the bundle's folder, and every
      // external package a file names.
      const late = `const { readdirSync, readFileSync } = require("node:fs");
const dir = require("node:path").dirname(require.resolve("./${main}"));
const files = readdirSync(dir).filter((f) => f.endsWith(".mjs"));
for (const f of files) require(dir + "/" + f);
const text = files.map((f) => readFileSync(dir + "/" + f, "utf8")).join("");
for (const p of ${JSON.stringify(EXTERNAL)}) if (text.includes(JSON.stringify(p))) require(p);
console.log(files.length);`;
      const loaded = execFileSync(process.execPath, ["-e", late], {
        cwd: stage,
        env,
        encoding: "utf8",
      });
      check(
        "every chunk and deferred file loads, with the external packages they require",
        Number(loaded.trim().split("\n").pop()) > 0,
      );
    } catch (err) {
      check(
        `${main} loads without dev dependencies`,
        false,
        String(err.stderr ?? err.message).slice(-600),
      );
    }
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}

finish("deploy-package", "DEPLOY_REPORT", { passed, failures });
