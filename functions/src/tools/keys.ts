import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { createApiKeyInput, listApiKeysInput, revokeApiKeyInput, setApiAccessInput } from "../console/schemas";
import { keyView } from "../console/keyView";
import { createKey, listKeys, revokeKey, setAccess } from "../repos/keyAdmin";
import type { Caller } from "../services/keyAdmin";

/**
 * The operator command: key management for support staff, against the emulator
 * (FIRESTORE_EMULATOR_HOST set) or a real project (--project and Application Default
 * Credentials). Same validation, rules and audit entries as the console's callables.
 */
const USAGE = `usage: npm run keys -- <command> [options]
  create --company ID --api findings|company --name NAME [--project ID] [--scopes read,provisioning]
  list   --company ID [--api findings|company]
  revoke --company ID --prefix PREFIX
  access --company ID --api findings|company --on|--off
options: --project-id GCP_PROJECT (required outside the emulator)`;

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
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
      "project-id": { type: "string" },
    },
  });
  if (!process.env.FIRESTORE_EMULATOR_HOST) {
    if (!values["project-id"]) throw new Error("Not on the emulator: pass --project-id and use Application Default Credentials.");
    process.env.GCLOUD_PROJECT = values["project-id"];
  }
  const operator = userInfo().username;
  const caller: Caller = { uid: `operator:${operator}`, admin: true, name: `Operator CLI (${operator})`, user: null, actorType: "system" };
  const parse = <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } }, input: unknown): T => {
    const result = schema.safeParse(input);
    if (!result.success) throw new Error(result.error.issues.map((i) => i.message).join("; "));
    return result.data;
  };
  const out = (value: unknown) => console.log(JSON.stringify(value, null, 2));
  switch (positionals[0]) {
    case "create": {
      const input = parse(createApiKeyInput, {
        companyId: values.company,
        api: values.api,
        name: values.name,
        projectId: values.project,
        scopes: values.scopes?.split(",").map((s) => s.trim()),
      });
      const { key, doc } = await createKey({ ...input, projectId: input.projectId ?? null }, caller);
      out({ key, ...keyView(doc) });
      console.error("The key is shown once; only its hash is stored.");
      return;
    }
    case "list": {
      const input = parse(listApiKeysInput, { companyId: values.company, api: values.api });
      out((await listKeys(input.companyId, input.api)).map(keyView));
      return;
    }
    case "revoke": {
      const input = parse(revokeApiKeyInput, { companyId: values.company, prefix: values.prefix });
      const { doc, alreadyRevoked } = await revokeKey(input.companyId, input.prefix, caller);
      out({ ...keyView(doc), alreadyRevoked });
      return;
    }
    case "access": {
      if (values.on === values.off) throw new Error("access needs exactly one of --on or --off");
      const input = parse(setApiAccessInput, { companyId: values.company, api: values.api, enabled: Boolean(values.on) });
      await setAccess(input.companyId, input.api, input.enabled, caller);
      out(input);
      return;
    }
    default:
      throw new Error(USAGE);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
