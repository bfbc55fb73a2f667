// Starts and stops Google's Firestore emulator (the Cloud CLI component, Java 17, offline).
// firebase-tools 14+ will not run it on Java < 21 (see shared ENVIRONMENT.md), so we drive
// the component's own launcher: spawned in its own process group, because the launcher
// starts `java` as a child and does not exec; killing the group frees the port.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const PROJECT_ID = "demo-safety-apis";

const INSTALL_HINT = `No Firestore emulator found. Either
  - install the Google Cloud CLI with its Firestore emulator component
    (Debian/Ubuntu: apt-get install google-cloud-cli google-cloud-cli-firestore-emulator;
     elsewhere: gcloud components install cloud-firestore-emulator), and Java 17+; or
  - start a Firestore emulator yourself and export FIRESTORE_EMULATOR_HOST=host:port.`;

function launcherPath() {
  if (process.env.FIRESTORE_EMULATOR_LAUNCHER) return process.env.FIRESTORE_EMULATOR_LAUNCHER;
  let root;
  try {
    root = execFileSync("gcloud", ["info", "--format=value(installation.sdk_root)"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
  const launcher = join(root, "platform", "cloud-firestore-emulator", "cloud_firestore_emulator");
  return existsSync(launcher) ? launcher : null;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function answers(host) {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return (await res.text()).trim() === "Ok";
  } catch {
    return false;
  }
}

/**
 * Starts an emulator and resolves once it answers `Ok`. Options: port, rules (path),
 * seed (path of an `.overall_export_metadata` file), functionsEmulator (`host:port` of the
 * Functions emulator that receives the triggers' events), quiet. Returns { host, stop() }. Rejects
 * with a clear message if the process exits early.
 */
export async function startFirestore({ port, rules, seed, functionsEmulator, quiet = true } = {}) {
  const launcher = launcherPath();
  if (!launcher) throw new Error(INSTALL_HINT);
  if (seed && !existsSync(seed))
    throw new Error(`Seed export not found: ${seed} (run npm run seed).`);
  const chosen = port ?? (await freePort());
  const host = `127.0.0.1:${chosen}`;
  if (await answers(host))
    throw new Error(
      `Port ${chosen} is already in use by another emulator; stop it or set FIRESTORE_EMULATOR_HOST to reuse it.`,
    );
  const args = ["start", "--host=127.0.0.1", `--port=${chosen}`, `--project_id=${PROJECT_ID}`];
  if (rules) args.push(`--rules=${rules}`);
  if (seed) args.push(`--seed_from_export=${seed}`);
  if (functionsEmulator) args.push(`--functions_emulator=${functionsEmulator}`);
  const child = spawn(launcher, args, {
    detached: true,
    stdio: ["ignore", quiet ? "ignore" : "inherit", quiet ? "pipe" : "inherit"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  let exited = null;
  child.on("exit", (code) => (exited = code ?? -1));

  const stop = () =>
    new Promise((resolve) => {
      if (exited !== null) return resolve();
      const force = setTimeout(() => killGroup(child.pid, "SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      killGroup(child.pid, "SIGTERM");
    });

  const deadline = Date.now() + 60_000;
  while (!(await answers(host))) {
    if (exited !== null)
      throw new Error(
        `The Firestore emulator exited (code ${exited}) before it was ready.\n${stderr}`,
      );
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The Firestore emulator did not answer on ${host} within 60 s.\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { host, stop, pid: child.pid };
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Writes `DIR/NAME/NAME.overall_export_metadata` (DIR must exist). */
export async function exportFirestore(host, directory, name) {
  const res = await fetch(`http://${host}/emulator/v1/projects/${PROJECT_ID}:export`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      database: `projects/${PROJECT_ID}/databases/(default)`,
      export_directory: directory,
      export_name: name,
    }),
  });
  if (!res.ok) throw new Error(`export failed: ${res.status} ${await res.text()}`);
}
