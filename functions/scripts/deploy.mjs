// The one deploy command (docs/operations.md, "Deploy"): npm run deploy -- --project ID
//
// Deploys the functions only (`firebase deploy --only functions`): an index or rules deploy from
// this repository would replace the app's whole set (and the app's would delete ours), so the
// indexes go into the app's file with `node lib/tools/mergeIndexes.js` and deploy from there.
//
// Refuses a `demo-` project (the emulators' namespace: nothing real to deploy to) and, unless
// `--direct` says otherwise, a project whose functions/.env.<project> does not put the APIs
// behind the load balancer (API_INGRESS=ALLOW_INTERNAL_AND_GCLB with FORWARDED_HOPS=2): reached
// directly, the runtime inflates any gzip body before our code runs (docs/operations.md,
// "Compressed bodies"), and any .env that sets the Functions SDK's debug switches. `--dry-run`
// prints the command instead of running it.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Where the per-project .env files are read from; tests point it at a temporary folder.
const ENV_DIR = process.env.DEPLOY_ENV_DIR ?? FUNCTIONS_DIR;

const { values } = parseArgs({
  options: {
    project: { type: "string" },
    direct: { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
  },
});

function refuse(message) {
  process.stderr.write(`deploy: ${message}\n`);
  process.exit(2);
}

/** KEY=VALUE lines as firebase-tools reads them (comments and blank lines ignored). */
function readEnv(file) {
  if (!existsSync(file)) return {};
  const env = {};
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && !line.trimStart().startsWith("#")) env[m[1]] = m[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  return env;
}

const project = values.project;
if (!project) refuse("name the project: npm run deploy -- --project ID");
if (!/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(project)) refuse(`"${project}" is not a project id`);
if (project.startsWith("demo-"))
  refuse(`"${project}" is a demo- project: the emulators' namespace, never deployed to`);

const envFile = join(ENV_DIR, `.env.${project}`);
const env = { ...readEnv(join(ENV_DIR, ".env")), ...readEnv(envFile) };
const behindBalancer = env.API_INGRESS === "ALLOW_INTERNAL_AND_GCLB";
if (!behindBalancer && !values.direct)
  refuse(
    `${envFile} does not set API_INGRESS=ALLOW_INTERNAL_AND_GCLB: the APIs would be reachable ` +
      "directly, where the runtime inflates gzip bodies before the app can refuse them. Put the " +
      "load balancer with its Cloud Armor policy in front (docs/operations.md) and set it, or " +
      "pass --direct to deploy without that protection knowingly.",
  );
if (behindBalancer && env.FORWARDED_HOPS !== "2")
  refuse(
    `${envFile}: behind the load balancer FORWARDED_HOPS must be 2 (the balancer appends ` +
      "`<client>, <balancer>`); with another value the failed-authentication guard keys on the balancer.",
  );
if (values.direct && env.FORWARDED_HOPS !== undefined && env.FORWARDED_HOPS !== "1")
  refuse(`${envFile}: called directly, FORWARDED_HOPS must be 1`);

// The Functions SDK's debug switches: FIREBASE_DEBUG_FEATURES can turn off the check of ID tokens
// (callables would take an unsigned token, anyone's, an Admin's) and of sign-in tokens. Only the
// emulator and the bench's measured processes may set them.
const debug = ["FIREBASE_DEBUG_MODE", "FIREBASE_DEBUG_FEATURES"].filter((k) => k in env);
if (debug.length)
  refuse(`${debug.join(" and ")} in functions/.env or ${envFile}: never deployed (token checks)`);

const args = ["firebase", "deploy", "--only", "functions", "--project", project];
if (values["dry-run"]) {
  process.stdout.write(`npx ${args.join(" ")}\n`);
  process.exit(0);
}
// firebase-tools is this package's dev dependency; firebase.json is at the repository root.
const run = spawnSync("npx", ["--prefix", FUNCTIONS_DIR, ...args], {
  cwd: resolve(FUNCTIONS_DIR, ".."),
  stdio: "inherit",
});
process.exit(run.status ?? 1);
