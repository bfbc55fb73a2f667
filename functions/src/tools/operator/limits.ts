import { setRateLimitsInput } from "../../console/schemas";
import { setRateLimits } from "../../services/companySettings";
import { parse, type Command } from "./cli";

/** `limits`: the rate-limit override of the company, of one scope's keys, or of one key. */
export const limits: Command = async (values, caller) => {
  const input = parse(setRateLimitsInput, {
    companyId: values.company,
    prefix: values.prefix,
    scope: values.scope,
    perMinute: values["per-minute"],
    perDay: values["per-day"],
    clear: values.clear ?? false,
  });
  await setRateLimits(input.companyId, input.prefix, input.rateLimits, caller, input.scope);
  return {
    companyId: input.companyId,
    prefix: input.prefix ?? null,
    ...(input.scope ? { scope: input.scope } : {}),
    rateLimits: input.rateLimits,
  };
};
