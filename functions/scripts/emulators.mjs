// The project's emulator commands (see README):
//   node scripts/emulators.mjs exec -- CMD…   Firestore for CMD (reused if FIRESTORE_EMULATOR_HOST
// is set)
//   node scripts/emulators.mjs seed           regenerate ../emulator-data from the deterministic
// seed
//   node scripts/emulators.mjs start          the local stack on the demo data, until Ctrl-C
//   node scripts/emulators.mjs stack -- CMD…  an empty stack (Firestore with rules and triggers,
//                                             Functions, Auth, Hosting) for CMD, stopped after it
// Every process started here is stopped on exit, Ctrl-C or failure (no orphaned JVM).
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { answers, exportFirestore, PROJECT_ID, startFirestore } from "./firestoreEmulator.mjs";
import { registerFirestoreTriggers } from "./firestoreTriggers.mjs";

const FUNCTIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = resolve(FUNCTIONS_DIR, "..");
const RULES = join(ROOT, "firestore.rules");
const DATA_DIR = join(ROOT, "emulator-data");
const EXPORT_NAME = "firestore_export";
const SEED = join(DATA_DIR, EXPORT_NAME, `${EXPORT_NAME}.overall_export_metadata`);
const FIREBASE_BIN = join(FUNCTIONS_DIR, "node_modules", ".bin", "firebase");
const REGION = "europe-west1";
// The ports firebase.json gives the Functions and Auth emulators (override both together with it).
const FUNCTIONS_PORT = Number(process.env.FUNCTIONS_EMULATOR_PORT ?? 5001);
const FUNCTIONS_HOST = `127.0.0.1:${FUNCTIONS_PORT}`;
const BASE = `http://${FUNCTIONS_HOST}/${PROJECT_ID}/${REGION}`;
const AUTH_HOST = `127.0.0.1:${Number(process.env.AUTH_EMULATOR_PORT ?? 9099)}`;
// The console, served by the Hosting emulator on the port firebase.json gives it.
const HOSTING_PORT = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8")).emulators
  ?.hosting?.port;
const CONSOLE_URL = `http://127.0.0.1:${HOSTING_PORT ?? 5002}/`;

const cleanups = [];
async function cleanup() {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch(() => {});
}

/** Runs a child in its own process group; resolves with its exit code. */
function run(cmd, args, options = {}) {
  const child = spawn(cmd, args, { stdio: "inherit", detached: true, ...options });
  const done = new Promise((res) =>
    child.on("exit", (code, signal) => res(code ?? (signal ? 1 : 0))),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // gone
      }
      await Promise.race([done, new Promise((r) => setTimeout(r, 8000))]);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  });
  return { child, done };
}

/** Reuses FIRESTORE_EMULATOR_HOST when it answers, else starts our own emulator. */
async function firestore(options) {
  const external = process.env.FIRESTORE_EMULATOR_HOST;
  if (external) {
    if (!(await answers(external)))
      throw new Error(`FIRESTORE_EMULATOR_HOST=${external} does not answer.`);
    return { host: external, reused: true };
  }
  const emulator = await startFirestore({ rules: RULES, ...options });
  cleanups.push(emulator.stop);
  return { host: emulator.host, reused: false };
}

const env = (host) => ({
  ...process.env,
  FIRESTORE_EMULATOR_HOST: host,
  GCLOUD_PROJECT: PROJECT_ID,
});

async function exec(argv) {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error("usage: emulators.mjs exec -- COMMAND [ARGS…]");
  // FIRESTORE_PORT: a fixed port (the smoke test runs the stack on the README's ports).
  const { host } = await firestore({
    port: process.env.FIRESTORE_PORT ? Number(process.env.FIRESTORE_PORT) : undefined,
  });
  return run(cmd, args, { env: env(host), detached: false }).done;
}

async function seed() {
  const { host } = await firestore({});
  const code = await run(process.execPath, [join(FUNCTIONS_DIR, "lib", "tools", "seedDemo.js")], {
    env: env(host),
    detached: false,
  }).done;
  if (code !== 0) return code;
  const staging = mkdtempSync(join(tmpdir(), "seed-"));
  await exportFirestore(host, staging, EXPORT_NAME);
  mkdirSync(DATA_DIR, { recursive: true });
  rmSync(join(DATA_DIR, EXPORT_NAME), { recursive: true, force: true });
  renameSync(join(staging, EXPORT_NAME), join(DATA_DIR, EXPORT_NAME));
  rmSync(staging, { recursive: true, force: true });
  console.log(`Seeded demo data exported to ${join(DATA_DIR, EXPORT_NAME)}`);
  return 0;
}

async function waitFor(url, seconds, alive) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (!alive()) return false;
    try {
      // One probe at a time, waited for: the Functions emulator starts a worker per request,
      // and under load (a first load can take tens of seconds) abandoned probes piled up
      // workers that loaded together until none finished.
      if ((await fetch(url, { signal: AbortSignal.timeout(60_000) })).ok) return true;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/**
 * The Functions, Auth and Hosting (the console, ../console-web/dist) emulators on Firestore
 * `host`, once both APIs answer; triggers registered.
 */
async function functionsAndAuth(host, reused, logFile) {
  const output = logFile ? openSync(logFile, "w") : "inherit";
  const firebase = run(
    FIREBASE_BIN,
    [
      "emulators:start",
      "--only",
      "functions,auth,hosting",
      "--project",
      PROJECT_ID,
      "--non-interactive",
    ],
    { cwd: ROOT, env: env(host), stdio: ["ignore", output, output] },
  );
  const ready = await waitFor(
    `${BASE}/findingsApi/v1`,
    180,
    () => firebase.child.exitCode === null,
  );
  if (!ready)
    throw new Error(
      `The Functions emulator did not come up; see its output ${logFile ? `in ${logFile}` : "above"}.`,
    );
  const triggers = await registerFirestoreTriggers(host, FUNCTIONS_HOST, PROJECT_ID);
  console.log(`Firestore triggers registered: ${triggers.join(", ") || "none"}`);
  if (reused && triggers.length)
    console.warn(
      `The reused Firestore emulator delivers trigger events only if it was started with --functions_emulator=${FUNCTIONS_HOST}.`,
    );
  return firebase;
}

async function start() {
  if (!existsSync(join(FUNCTIONS_DIR, "lib", "index.js")))
    throw new Error("Build first: npm run build");
  const port = Number(process.env.FIRESTORE_PORT ?? 8080);
  const { host, reused } = await firestore({
    port,
    seed: SEED,
    quiet: true,
    functionsEmulator: FUNCTIONS_HOST,
  });
  if (reused) {
    console.log(`Reusing the Firestore emulator at ${host}; loading the demo data into it…`);
    const code = await run(process.execPath, [join(FUNCTIONS_DIR, "lib", "tools", "seedDemo.js")], {
      env: env(host),
      detached: false,
    }).done;
    if (code !== 0) throw new Error("seeding the running emulator failed");
  }
  const firebase = await functionsAndAuth(host, reused);
  const base = BASE;
  const authSeed = await run(
    process.execPath,
    [join(FUNCTIONS_DIR, "lib", "tools", "seedDemoAuth.js")],
    {
      env: { ...env(host), FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST },
      detached: false,
    },
  ).done;
  if (authSeed !== 0)
    throw new Error("creating the demo console users in the Auth emulator failed");
  const { DEMO_KEYS } = await import(join(FUNCTIONS_DIR, "lib", "tools", "demo", "keys.js"));
  console.log(`
==============================================================================
 Local stack ready (project ${PROJECT_ID}; Firestore ${host}; Auth ${AUTH_HOST})
   findingsApi  ${base}/findingsApi/v1
   companyApi   ${base}/companyApi/v1
 Demo keys (demo data only, never valid anywhere else):
${DEMO_KEYS.map((k) => `   ${k.label.padEnd(36)} ${k.key}`).join("\n")}
 Console       ${CONSOLE_URL}
 Demo console users (Auth emulator), password demo-password: admin@demo.example
 (platform Admin), owner@demo.example (owner, Key User), user@demo.example (plain user).
 Try:
   curl -H "Authorization: Bearer ${DEMO_KEYS[0].key}" ${base}/findingsApi/v1/project
 Ctrl-C stops everything.
==============================================================================`);
  return firebase.done;
}

/**
 * An empty stack for CMD: Firestore (rules loaded, its trigger events sent to the Functions
 * emulator), the Functions, Auth and Hosting emulators, every Firestore trigger registered; CMD
 * gets FIRESTORE_EMULATOR_HOST, FIREBASE_AUTH_EMULATOR_HOST, FINDINGS_API_URL and COMPANY_API_URL.
 */
async function stack(argv) {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error("usage: emulators.mjs stack -- COMMAND [ARGS…]");
  if (!existsSync(join(FUNCTIONS_DIR, "lib", "index.js")))
    throw new Error("Build first: npm run build");
  const port = process.env.FIRESTORE_PORT ? Number(process.env.FIRESTORE_PORT) : undefined;
  const emulator = await startFirestore({ rules: RULES, port, functionsEmulator: FUNCTIONS_HOST });
  cleanups.push(emulator.stop);
  // The emulators' own output (a line per function run) goes to a file, CMD's to the terminal.
  const logFile = join(mkdtempSync(join(tmpdir(), "stack-")), "emulators.log");
  console.log(`Functions and Auth emulator output: ${logFile}`);
  await functionsAndAuth(emulator.host, false, logFile);
  return run(cmd, args, {
    env: {
      ...env(emulator.host),
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_HOST,
      FINDINGS_API_URL: `${BASE}/findingsApi`,
      COMPANY_API_URL: `${BASE}/companyApi`,
    },
    detached: false,
  }).done;
}

const [command, ...rest] = process.argv.slice(2);
const argv = rest[0] === "--" ? rest.slice(1) : rest;
const commands = { exec: () => exec(argv), seed, start, stack: () => stack(argv) };
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await cleanup();
    process.exit(130);
  });
}
if (!commands[command]) {
  console.error("usage: emulators.mjs exec -- COMMAND… | seed | start | stack -- COMMAND…");
  process.exit(2);
}
commands[command]()
  .then(async (code) => {
    await cleanup();
    process.exit(code ?? 0);
  })
  .catch(async (err) => {
    console.error(err instanceof Error ? err.message : err);
    await cleanup();
    process.exit(1);
  });
