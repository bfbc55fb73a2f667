import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { KillPoint } from "./faultServer";

/**
 * The crash tests' side of faultServer.ts: a company API in a forked process, and a point where
 * it SIGKILLs itself.
 */
export interface FaultServer {
  url: string;
  child: ChildProcess;
  exited: Promise<void>;
}

const RUNNER = join(__dirname, "runTs.mjs");
const SERVER = join(__dirname, "faultServer.ts");

/** Forks a company API and waits until it listens. */
export async function startServer(): Promise<FaultServer> {
  const child = fork(RUNNER, [SERVER], {
    env: process.env,
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    void exited.then(() => reject(new Error("the server exited before listening")));
  });
  return { url: `http://127.0.0.1:${port}`, child, exited };
}

/** Makes the server SIGKILL itself at `kill`, once it has confirmed. */
export async function arm(server: FaultServer, kill: KillPoint): Promise<void> {
  const armed = new Promise((resolve) => server.child.once("message", resolve));
  server.child.send({ arm: kill });
  await armed;
}
