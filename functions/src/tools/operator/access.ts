import { setApiAccessInput } from "../../console/schemas";
import { setAccess } from "../../services/companySettings";
import { parse, UsageError, type Command } from "./cli";

/** `access`: turns one API on or off for the company. */
export const access: Command = async (values, caller) => {
  if (values.on === values.off) throw new UsageError("access needs exactly one of --on or --off");
  const input = parse(setApiAccessInput, {
    companyId: values.company,
    api: values.api,
    enabled: Boolean(values.on),
  });
  await setAccess(input.companyId, input.api, input.enabled, caller);
  return input;
};
