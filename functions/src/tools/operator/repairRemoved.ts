import { moveRemovedAside } from "../../repos/removedUsersRepair";
import { UsageError, type Command } from "./cli";

/** `repair-removed`: moves removed users' fields aside (users removed by older versions). */
export const repairRemoved: Command = async (values) => {
  if (!values.company) throw new UsageError("repair-removed needs --company");
  return { companyId: values.company, moved: await moveRemovedAside(values.company) };
};
