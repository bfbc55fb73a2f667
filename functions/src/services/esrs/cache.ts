import { setBounded } from "../../lib/bounded";
import { MINUTE_MS } from "../../lib/dates";
import { periodYearAt } from "../../lib/period";
import { findEsrsSettings } from "../../repos/companies";
import { computeEsrsReport, figuresOf, type EsrsFigures } from "./report";

/**
 * The ESRS report of a company and year, computed at most once per CACHE_MS per instance: one
 * report costs six queries and a read per candidate case, and an API key may ask 60 times a minute.
 * The cached report keeps its `generatedAt`, so numbers never look newer than they are; a change to
 * the data shows at the latest CACHE_MS later (docs/api-behaviour.md and the company guide say so).
 * Concurrent requests for the same report share one computation.
 */
export const CACHE_MS = 5 * MINUTE_MS;
const MAX_ENTRIES = 1000;

const cache = new Map<string, { at: number; report: Promise<EsrsFigures> }>();

/**
 * The figures only: what each was made of is read again by a freeze (freeze.ts), never kept here.
 * No year: the period in progress at `now`, resolved first from the company's settings (one read)
 * so the default is cached under its year like an explicit one.
 */
export async function esrsReport(
  companyId: string,
  requestedYear: number | undefined,
  now = Date.now(),
): Promise<EsrsFigures> {
  const year =
    requestedYear ?? periodYearAt(new Date(now), (await findEsrsSettings(companyId)).reporting);
  const key = `${companyId}\u0000${year}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.report;
  const report = computeEsrsReport(companyId, year, new Date(now)).then(figuresOf);
  const stored = { at: now, report };
  report.catch(() => {
    // A failure is not cached: the next request computes again.
    if (cache.get(key) === stored) cache.delete(key);
  });
  setBounded(cache, key, stored, MAX_ENTRIES);
  return report;
}
