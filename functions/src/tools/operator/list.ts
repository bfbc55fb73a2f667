import { keyView } from "../../console/keyView";
import { listApiKeysInput } from "../../console/schemas";
import { listKeysWithLimits } from "../../services/keyAdmin";
import { parse, type Command } from "./cli";

/** `list`: the company's keys with their effective limits. */
export const list: Command = async (values, caller) => {
  const input = parse(listApiKeysInput, { companyId: values.company, api: values.api });
  const keys = await listKeysWithLimits(input.companyId, input.api, caller);
  return keys.map(({ doc, rateLimits }) => keyView(doc, rateLimits));
};
