import { findCompany } from "../repos/companies";
import { assertMayReport, KeyAdminError } from "../services/keyAdmin";
import { refreshRollup } from "../services/rollupJob";
import { callableHandler } from "./callable";
import { companyInput } from "./schemas";

/** Rolls up one company at once (the daily job does every company with the company API on). */
export const refreshKpiRollupHandler = callableHandler("refreshKpiRollup", companyInput, async (input, caller) => {
  assertMayReport(caller, input.companyId);
  if (!(await findCompany(input.companyId))) throw new KeyAdminError("not-found", "No such company.");
  const { generatedAt, months, areas } = await refreshRollup(input.companyId);
  return { companyId: input.companyId, generatedAt: generatedAt.toISOString(), months, areas };
});
