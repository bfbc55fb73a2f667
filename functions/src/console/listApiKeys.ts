import { listKeys } from "../services/keyAdmin";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { listApiKeysInput } from "./schemas";

/** The company's keys, newest first, revoked ones included. */
export const listApiKeysHandler = callableHandler(
  "listApiKeys",
  listApiKeysInput,
  async (input, caller) => {
    return { keys: (await listKeys(input.companyId, input.api, caller)).map(keyView) };
  },
);
