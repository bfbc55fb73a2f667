import { keyUsageDays } from "../services/keyUsage";
import { callableHandler } from "./callable";
import { apiKeyUsageInput } from "./consoleInputs";

/** A key's admitted requests per UTC day, the last 30 days (today last), for the usage chart. */
export const apiKeyUsageHandler = callableHandler(
  "apiKeyUsage",
  apiKeyUsageInput,
  async (input, caller) => ({
    prefix: input.prefix,
    days: await keyUsageDays(input.companyId, input.prefix, caller),
  }),
);
