import { keyView } from "../../console/keyView";
import { createApiKeyInput } from "../../console/schemas";
import { createKey } from "../../services/keyAdmin";
import { parse, type Command } from "./cli";

/** `create`: a new key, shown once. */
export const create: Command = async (values, caller, log) => {
  const input = parse(createApiKeyInput, {
    companyId: values.company,
    api: values.api,
    name: values.name,
    projectId: values.project,
    scopes: values.scopes?.split(",").map((s) => s.trim()),
  });
  const { key, doc } = await createKey({ ...input, projectId: input.projectId ?? null }, caller);
  log("keys: the key is shown once; only its hash is stored.");
  return { key, ...keyView(doc) };
};
