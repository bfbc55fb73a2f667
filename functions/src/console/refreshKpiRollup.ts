import { assertMayReport } from "../services/adminAccess";
import { refreshRollupOnDemand } from "../services/rollupJob";
import { callableHandler } from "./callable";
import { companyInput } from "./schemas";

/**
 * Rolls up one company at once (the daily job does every company with the company API on), at
 * most once every 10 minutes per company: a rollup costs hundreds of aggregation queries.
 */
export const refreshKpiRollupHandler = callableHandler(
  "refreshKpiRollup",
  companyInput,
  async (input, caller) => {
    await assertMayReport(caller, input.companyId);
    const { generatedAt, months, areas } = await refreshRollupOnDemand(input.companyId);
    return { companyId: input.companyId, generatedAt: generatedAt.toISOString(), months, areas };
  },
);
