import { rollApiKey } from "../services/keyRoll";
import { callableHandler } from "./callable";
import { rollApiKeyInput } from "./consoleInputs";
import { keyView } from "./keyView";

/**
 * Rolls a key: the new key is returned once; the old one (`rolled`) works until its expiry
 * (`expiresIn`: now, 1 h, 24 h or 7 days), then answers 401.
 */
export const rollApiKeyHandler = callableHandler(
  "rollApiKey",
  rollApiKeyInput,
  async (input, caller) => {
    const { key, doc, rolled } = await rollApiKey(
      input.companyId,
      input.prefix,
      input.expiresIn,
      caller,
    );
    return { key, ...keyView(doc), rolled: keyView(rolled) };
  },
);
