import { listKeys } from "../repos/keyAdmin";
import { assertMayManageKeys } from "../services/keyAdmin";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { listApiKeysInput } from "./schemas";

/** The company's keys, newest first, revoked ones included. */
export const listApiKeysHandler = callableHandler("listApiKeys", listApiKeysInput, async (input, caller) => {
  assertMayManageKeys(caller, input.companyId);
  return { keys: (await listKeys(input.companyId, input.api)).map(keyView) };
});
