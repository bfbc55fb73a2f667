import { listKeysWithLimits } from "../services/keyAdmin";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { listApiKeysInput } from "./schemas";

/** The company's keys, newest first, revoked ones included, each with its effective limits. */
export const listApiKeysHandler = callableHandler(
  "listApiKeys",
  listApiKeysInput,
  async (input, caller) => {
    const keys = await listKeysWithLimits(input.companyId, input.api, caller);
    return { keys: keys.map(({ doc, rateLimits }) => keyView(doc, rateLimits)) };
  },
);
