// How the quickstart test runs things: the local stack, the operator command, and one quickstart
// of ../examples as its README says (reading the `summary {…}` line it prints last).
import { spawn, spawnSync } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function sh(cmd, args, options = {}) {
  const run = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...options });
  return { ok: run.status === 0, output: `${run.stdout ?? ""}${run.stderr ?? ""}` };
}

/** The operator command on this stack's Firestore (limits by arrangement, as in production). */
export function operator(functionsDir, command, ...args) {
  const keys = join(functionsDir, "lib", "tools", "operator.js");
  const run = sh(process.execPath, [keys, command, "--company", "demo-nordic-shipping", ...args]);
  if (!run.ok) throw new Error(`keys ${command} ${args.join(" ")}: ${run.output}`);
}

/** `emulators.mjs start` (the README's local stack) in its own process group, once it is ready. */
export async function startStack(functionsDir, log) {
  const script = join(functionsDir, "scripts", "emulators.mjs");
  const stack = spawn(process.execPath, [script, "start"], {
    detached: true,
    stdio: ["ignore", openSync(log, "w"), openSync(log, "a")],
  });
  const exited = new Promise((done) => stack.once("exit", done));
  const stop = async () => {
    if (stack.exitCode === null) process.kill(-stack.pid, "SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && stack.exitCode === null) {
    if (readFileSync(log, "utf8").includes("Local stack ready")) return { stop };
    await new Promise((r) => setTimeout(r, 1000));
  }
  await stop();
  throw new Error(`the local stack did not start; its output: ${log}`);
}

const COMMANDS = {
  ts: (job) => [process.execPath, [`typescript/${job}.ts`]],
  py: (job) => ["python3", [`python/${job}.py`]],
};

/** { ok, summary, output } of `lang` (ts, py) running `job` (findings, company) in `examples`. */
export function runExample(examples, lang, job, env) {
  const [cmd, args] = COMMANDS[lang](job);
  const run = spawnSync(cmd, args, { cwd: examples, env, encoding: "utf8", maxBuffer: 16 << 20 });
  const output = `$ ${cmd} ${args.join(" ")}\n${run.stdout}${run.stderr}`;
  const line = run.stdout
    ?.split("\n")
    .reverse()
    .find((l) => l.startsWith("summary "));
  const summary = line ? JSON.parse(line.slice("summary ".length)) : undefined;
  return { ok: run.status === 0, summary, output };
}
