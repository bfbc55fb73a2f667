import { createKey } from "../services/keyAdmin";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { createApiKeyInput } from "./schemas";

/** Creates a key and returns it once; only its SHA-256 hash is stored. */
export const createApiKeyHandler = callableHandler(
  "createApiKey",
  createApiKeyInput,
  async (input, caller) => {
    const { key, doc } = await createKey(
      {
        companyId: input.companyId,
        api: input.api,
        name: input.name,
        projectId: input.projectId ?? null,
        scopes: input.scopes,
      },
      caller,
    );
    return { key, ...keyView(doc) };
  },
);
