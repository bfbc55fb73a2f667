import { MINUTE_MS } from "../lib/dates";
import { createLimiter } from "../lib/pool";
import { rollupFailed } from "../logs";
import { claimRefresh, companiesWithCompanyApi, saveRollup } from "../repos/kpiRollups";
import { KeyAdminError } from "./adminAccess";
import { computeRollup, type Rollup } from "./kpiRollup";

/** Rolls up one company now and stores the result (the callable and the daily job). */
export async function refreshRollup(
  companyId: string,
  now = new Date(),
): Promise<Rollup & { generatedAt: Date }> {
  const rollup = await computeRollup(companyId, now);
  await saveRollup(companyId, rollup, now);
  return { ...rollup, generatedAt: now };
}

/** On-demand refreshes of one company (the console's callable) are this far apart at least. */
export const REFRESH_INTERVAL_MS = 10 * MINUTE_MS;

/**
 * The console's refresh: refused (`too_soon`, naming when) within REFRESH_INTERVAL_MS of the last.
 */
export async function refreshRollupOnDemand(
  companyId: string,
  now = new Date(),
): Promise<Rollup & { generatedAt: Date }> {
  const claim = await claimRefresh(companyId, REFRESH_INTERVAL_MS, now);
  if (!claim.claimed) {
    throw new KeyAdminError(
      "too_soon",
      `The KPI rollup of this company was refreshed less than ` +
        `${REFRESH_INTERVAL_MS / MINUTE_MS} minutes ago; refresh again after ` +
        `${claim.nextAt.toISOString()}.`,
    );
  }
  return refreshRollup(companyId, now);
}

/** Companies rolled up at once by the daily job (each runs its own bounded set of queries). */
const COMPANIES_AT_ONCE = 4;

/** Rolls up each company; one failure (logged) never stops the others. */
export async function refreshRollups(
  companyIds: string[],
  now = new Date(),
): Promise<{ refreshed: number; failed: number }> {
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
export async function refreshAllRollups(
  now = new Date(),
): Promise<{ refreshed: number; failed: number }> {
  return refreshRollups(await companiesWithCompanyApi(), now);
}
