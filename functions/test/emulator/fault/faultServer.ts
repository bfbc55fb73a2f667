import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCompanyApp } from "../../../src/company/app";
import * as accountIntents from "../../../src/repos/accountIntents";
import * as authAccounts from "../../../src/repos/authAccounts";
import * as idempotencyKeys from "../../../src/repos/idempotencyKeys";
import * as scimGroupWrites from "../../../src/repos/scimGroupWrites";
import * as userRematch from "../../../src/repos/userRematch";
import * as userTransaction from "../../../src/repos/userTransaction";
import { asInFunctionsRuntime } from "../../support/scim";

/**
 * The company API in a process of its own, for the crash tests (provisioningCrash, groupCrash,
 * idempotencyCrash; started and armed by faultProcess.ts): serves createCompanyApp() on a free
 * port against the test's emulators and sends the port to its parent. A `{ arm }` message makes
 * it SIGKILL itself at the `nth` call of a repo function, `after` the call resolved (the write
 * done, nothing after it) or `before` it starts.
 */
export interface KillPoint {
  fn:
    | "recordIntent"
    | "createAccount"
    | "setAccountEmail"
    | "setSignInAllowed"
    | "deleteAccount"
    | "runUserTransaction"
    | "changeMembers"
    | "settleUsers"
    | "storeIdempotentAnswer";
  nth: number;
  when: "before" | "after";
}

const MODULES: Record<KillPoint["fn"], Record<string, unknown>> = {
  recordIntent: accountIntents,
  createAccount: authAccounts,
  setAccountEmail: authAccounts,
  setSignInAllowed: authAccounts,
  deleteAccount: authAccounts,
  runUserTransaction: userTransaction,
  changeMembers: scimGroupWrites,
  settleUsers: userRematch,
  storeIdempotentAnswer: idempotencyKeys,
};

const die = () => process.kill(process.pid, "SIGKILL");

function arm({ fn, nth, when }: KillPoint): void {
  const module = MODULES[fn];
  const original = module[fn] as (...args: unknown[]) => Promise<unknown>;
  let calls = 0;
  // The compiled services call repos through the module object, so replacing the export reaches
  // them.
  module[fn] = async (...args: unknown[]) => {
    const mine = ++calls === nth;
    if (mine && when === "before") die();
    const result = await original(...args);
    if (mine) die();
    return result;
  };
}

process.on("message", (message: { arm?: KillPoint }) => {
  if (message.arm) arm(message.arm);
  process.send?.({ armed: true });
});

// The test process gone (a failed or interrupted run): no server outlives it.
process.on("disconnect", () => process.exit(0));

const server = createServer(asInFunctionsRuntime(createCompanyApp()));
server.listen(0, "127.0.0.1", () =>
  process.send?.({ port: (server.address() as AddressInfo).port }),
);
