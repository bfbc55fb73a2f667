import { setAccess } from "../services/companySettings";
import { callableHandler } from "./callable";
import { setApiAccessInput } from "./schemas";

/** Turns the findings export or the company API on or off for a company (Admins only). */
export const setApiAccessHandler = callableHandler(
  "setApiAccess",
  setApiAccessInput,
  async (input, caller) => {
    await setAccess(input.companyId, input.api, input.enabled, caller);
    return { companyId: input.companyId, api: input.api, enabled: input.enabled };
  },
);
