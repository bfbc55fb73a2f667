import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import type { Caller } from "../services/adminAccess";
import { access } from "./operator/access";
import { UsageError, type Command } from "./operator/cli";
import { create } from "./operator/create";
import { limits } from "./operator/limits";
import { list } from "./operator/list";
import { provisioning } from "./operator/provisioning";
import { repairRemoved } from "./operator/repairRemoved";
import { revoke } from "./operator/revoke";

/**
 * The operator command: key management and company settings for support staff, one file per
 * command in operator/. Same validation, rules and audit entries as the console's callables
 * (actor `system`). Prints JSON on stdout and nothing else; what it talks to goes to stderr.
 *
 * Target: the local stack the README starts (the Firestore emulator at 127.0.0.1:8080, project
 * demo-safety-apis) unless --project-id names a real project; FIRESTORE_EMULATOR_HOST, when set,
 * wins (with --project-id as the emulator's project).
 */
const USAGE = `usage: npm --prefix functions run --silent keys -- <command> [options]
  create --company ID --api findings|company --name NAME [--project ID] [--scopes read,provisioning]
  list   --company ID [--api findings|company]
  revoke --company ID --prefix PREFIX
  access --company ID --api findings|company --on|--off
  limits --company ID [--scope read|provisioning | --prefix PREFIX]
         (--per-minute N [--per-day N] | --per-day N | --clear)
         company-wide, for the company's keys of one scope (kept when keys are rotated:
         the way to raise limits by arrangement), or for one key; --clear removes that level
  provisioning --company ID [--domains a.example,b.example | --clear | --any-domain]
               [--roles-source app|identityProvider] [--department-source app|identityProvider]
               without domains (the default, or --clear) provisioning creates no users;
               --any-domain accepts every domain (development only: it answers whether an
               address is used by any company)
  repair-removed --company ID   moves removed users' createdAt aside (users removed by older
                                versions; docs/firestore-data.md, "People"); safe to repeat
options:
  --project-id GCP_PROJECT   a real project, with Application Default Credentials
                             (default: the local stack's Firestore emulator, 127.0.0.1:8080,
                             or the port in FIRESTORE_PORT)
  --help                     this text`;

// FIRESTORE_PORT: the local stack's Firestore port when it is not the default (start.sh and the
// smoke test take it too).
const LOCAL = {
  host: `127.0.0.1:${process.env.FIRESTORE_PORT ?? 8080}`,
  project: "demo-safety-apis",
};

const COMMANDS: Record<string, Command> = {
  create,
  list,
  revoke,
  access,
  limits,
  provisioning,
  "repair-removed": repairRemoved,
};

async function chooseTarget(projectIdFlag: string | undefined): Promise<string> {
  if (projectIdFlag && !process.env.FIRESTORE_EMULATOR_HOST) {
    process.env.GCLOUD_PROJECT = projectIdFlag;
    return `project ${projectIdFlag} (Application Default Credentials)`;
  }
  const host = (process.env.FIRESTORE_EMULATOR_HOST ??= LOCAL.host);
  process.env.GCLOUD_PROJECT = projectIdFlag ?? process.env.GCLOUD_PROJECT ?? LOCAL.project;
  const answers = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.ok,
    () => false,
  );
  if (!answers) {
    throw new Error(
      `No Firestore emulator answers at ${host}: start the local stack (bash ` +
        `functions/scripts/start.sh), or pass --project-id for a real project.`,
    );
  }
  return `the Firestore emulator at ${host} (project ${process.env.GCLOUD_PROJECT})`;
}

/** Runs one command; returns what to print as JSON. Exported for the tests. */
export async function run(
  argv: string[],
  log: (line: string) => void = (line) => console.error(line),
): Promise<unknown> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        company: { type: "string" },
        api: { type: "string" },
        name: { type: "string" },
        project: { type: "string" },
        scopes: { type: "string" },
        prefix: { type: "string" },
        on: { type: "boolean" },
        off: { type: "boolean" },
        scope: { type: "string" },
        "per-minute": { type: "string" },
        "per-day": { type: "string" },
        clear: { type: "boolean" },
        domains: { type: "string" },
        "any-domain": { type: "boolean" },
        "roles-source": { type: "string" },
        "department-source": { type: "string" },
        "project-id": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (values.help || command === "help") return USAGE;
  const runCommand =
    command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!runCommand)
    throw new UsageError(command ? `unknown command "${command}"` : "no command given");

  log(`keys: ${await chooseTarget(values["project-id"])}`);
  const operator = userInfo().username;
  const caller: Caller = {
    uid: `operator:${operator}`,
    admin: true,
    name: `Operator CLI (${operator})`,
    user: null,
    actorType: "system",
  };
  return runCommand(values, caller, log);
}

if (require.main === module) {
  run(process.argv.slice(2))
    .then((result) => {
      if (typeof result === "string") console.log(result);
      else console.log(JSON.stringify(result, null, 2));
      process.exit(0);
    })
    .catch((err: unknown) => {
      const usage = err instanceof UsageError;
      console.error(
        `keys: ${err instanceof Error ? err.message : String(err)}${usage ? `\n\n${USAGE}` : ""}`,
      );
      process.exit(usage ? 2 : 1);
    });
}
