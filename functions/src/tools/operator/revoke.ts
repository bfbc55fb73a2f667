import { keyView } from "../../console/keyView";
import { revokeApiKeyInput } from "../../console/schemas";
import { revokeKey } from "../../services/keyAdmin";
import { parse, type Command } from "./cli";

/** `revoke`: the company's key with this prefix; repeating it changes nothing. */
export const revoke: Command = async (values, caller) => {
  const input = parse(revokeApiKeyInput, { companyId: values.company, prefix: values.prefix });
  const { doc, alreadyRevoked } = await revokeKey(input.companyId, input.prefix, caller);
  return { ...keyView(doc), alreadyRevoked };
};
