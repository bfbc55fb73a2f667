import { revokeKey } from "../services/keyAdmin";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { revokeApiKeyInput } from "./schemas";

/** Revokes a key by its prefix, effective on the next request; revoking twice is harmless. */
export const revokeApiKeyHandler = callableHandler(
  "revokeApiKey",
  revokeApiKeyInput,
  async (input, caller) => {
    const { doc, alreadyRevoked } = await revokeKey(input.companyId, input.prefix, caller);
    return { ...keyView(doc), alreadyRevoked };
  },
);
