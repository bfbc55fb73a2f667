import type { CompanyRateLimits, LimitScope } from "../repos/storedFields";
import type { Limits } from "./rateLimit";

/** Where an effective limit comes from (shown in the console's key listing). */
export type LimitSource = "key" | `company.${LimitScope}` | "company" | "default";

export interface LimitsWithSource extends Limits {
  source: { perMinute: LimitSource; perDay: LimitSource };
}

/** The scope a key's limits are arranged for: `provisioning` when it may provision, else `read`. */
export const limitScopeOf = (scopes: readonly string[]): LimitScope =>
  scopes.includes("provisioning") ? "provisioning" : "read";

/**
 * Per-field override: the key's value wins over the company's for the key's scope, which wins
 * over the company-wide one, which wins over the default (docs/firestore-data.md, `rateLimits`).
 */
export function effectiveLimits(
  defaults: Limits,
  company: CompanyRateLimits | undefined,
  key: Partial<Limits> | undefined,
  scope: LimitScope,
): LimitsWithSource {
  const pick = (field: keyof Limits): [number, LimitSource] => {
    const levels: Array<[number | undefined, LimitSource]> = [
      [key?.[field], "key"],
      [company?.[scope]?.[field], `company.${scope}`],
      [company?.[field], "company"],
    ];
    const found = levels.find(([value]) => value !== undefined);
    return found ? [found[0]!, found[1]] : [defaults[field], "default"];
  };
  const [perMinute, minuteSource] = pick("perMinute");
  const [perDay, daySource] = pick("perDay");
  return { perMinute, perDay, source: { perMinute: minuteSource, perDay: daySource } };
}
