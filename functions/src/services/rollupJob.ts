import { rollupFailed } from "../logs";
import { createLimiter } from "../lib/pool";
import type { AggregateStats } from "../repos/aggregates";
import { companiesWithCompanyApi, saveRollup } from "../repos/kpiRollups";
import { computeRollup, type Rollup } from "./kpiRollup";

/** Rolls up one company now and stores the result (the callable and the daily job). */
export async function refreshRollup(companyId: string, now = new Date(), stats?: AggregateStats): Promise<Rollup & { generatedAt: Date }> {
  const rollup = await computeRollup(companyId, now, stats);
  await saveRollup(companyId, rollup, now);
  return { ...rollup, generatedAt: now };
}

/** Companies rolled up at once by the daily job (each runs its own bounded set of queries). */
const COMPANIES_AT_ONCE = 4;

/** Rolls up each company; one failure (logged) never stops the others. */
export async function refreshRollups(companyIds: string[], now = new Date()): Promise<{ refreshed: number; failed: number }> {
  const run = createLimiter(COMPANIES_AT_ONCE);
  const results = await Promise.all(
    companyIds.map((companyId) =>
      run(() => refreshRollup(companyId, now)).then(
        () => true,
        (err: unknown) => {
          rollupFailed(companyId, err);
          return false;
        },
      ),
    ),
  );
  return { refreshed: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length };
}

/** The daily job: every company with the company API on. */
export async function refreshAllRollups(now = new Date()): Promise<{ refreshed: number; failed: number }> {
  return refreshRollups(await companiesWithCompanyApi(), now);
}
