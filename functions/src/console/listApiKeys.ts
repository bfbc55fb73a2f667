import { listKeysWithLimits } from "../services/keyAdmin";
import { requestsToday } from "../services/keyUsage";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { listApiKeysInput } from "./schemas";

/**
 * The company's keys, newest first, revoked ones included, each with its effective limits and,
 * while it works, its requests today (UTC day, against `rateLimits.perDay`).
 */
export const listApiKeysHandler = callableHandler(
  "listApiKeys",
  listApiKeysInput,
  async (input, caller) => {
    const keys = await listKeysWithLimits(input.companyId, input.api, caller);
    const today = await requestsToday(
      input.companyId,
      keys.map((k) => k.doc),
    );
    return {
      keys: keys.map(({ doc, rateLimits }) => ({
        ...keyView(doc, rateLimits),
        requestsToday: today.get(doc.prefix) ?? null,
      })),
    };
  },
);
