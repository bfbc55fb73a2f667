import { listKeysWithLimits } from "../services/keyAdmin";
import { requestsToday } from "../services/keyUsage";
import { callableHandler } from "./callable";
import { keyView } from "./keyView";
import { listApiKeysInput } from "./schemas";

/**
 * The company's keys, newest first, revoked ones included, each with its effective limits, its
 * creator's name (`createdByName`, as audit entries name people) and, while it works, its
 * requests today (UTC day, against `rateLimits.perDay`).
 */
export const listApiKeysHandler = callableHandler(
  "listApiKeys",
  listApiKeysInput,
  async (input, caller) => {
    const keys = await listKeysWithLimits(input.companyId, input.api, caller);
    const today = await requestsToday(keys);
    return {
      keys: keys.map(({ doc, rateLimits, creator }) => ({
        ...keyView(doc, rateLimits),
        createdByName: creator,
        requestsToday: today.get(doc.prefix) ?? null,
      })),
    };
  },
);
