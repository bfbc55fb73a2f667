import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { compactList, isMap, misfit, unusable, type FieldPath, type Reader } from "./stored";

/** The readers of the stored field kinds (see stored.ts for how a document is read with them). */
const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;

export const timestamp: Reader<Timestamp | null> = (v, path) =>
  v instanceof Timestamp ? v : isNullish(v) ? null : misfit(path, null);
export const nullableString: Reader<string | null> = (v, path) =>
  typeof v === "string" ? v : isNullish(v) ? null : misfit(path, null);
export const nullableNumber: Reader<number | null> = (v, path) =>
  typeof v === "number" && Number.isFinite(v) ? v : isNullish(v) ? null : misfit(path, null);
export const nullableInteger: Reader<number | null> = (v, path) =>
  Number.isSafeInteger(v) ? (v as number) : isNullish(v) ? null : misfit(path, null);
export const nullableFlag: Reader<boolean | null> = (v, path) =>
  typeof v === "boolean" ? v : isNullish(v) ? null : misfit(path, null);
export const text: Reader<string> = (v, path) =>
  typeof v === "string" ? v : isNullish(v) ? "" : misfit(path, "");
export const flag: Reader<boolean> = (v, path) =>
  typeof v === "boolean" ? v : isNullish(v) ? false : misfit(path, false);
/**
 * A whole number of at least 0 (e.g. days lost: IG 3 types it an integer); a negative or fractional
 * one reads as absent, logged.
 */
export const nonNegativeInteger: Reader<number | null> = (v, path) =>
  Number.isSafeInteger(v) && (v as number) >= 0
    ? (v as number)
    : isNullish(v)
      ? null
      : misfit(path, null);
/**
 * The one hidden rule: absent, null and `false` show; `true` and any other value (`"true"`, `1`,
 * …) hide, never show. The listings, the change records, ESRS and the KPI rollup all apply it.
 */
export const isHiddenValue = (v: unknown): boolean => !isNullish(v) && v !== false;
/** `hidden` and `deleted` flags, by that rule; a value that is not a boolean is logged. */
export const hiddenFlag: Reader<boolean> = (v, path) =>
  typeof v === "boolean" || isNullish(v) ? isHiddenValue(v) : misfit(path, true);
export const freeForm: Reader<Record<string, unknown>> = (v, path) =>
  isMap(v) ? v : isNullish(v) ? {} : misfit(path, {});
/** Any value, as stored (e.g. `markers` items, `storageRef`, checked where it is used). */
export const anyValue: Reader<unknown> = (v) => v;

/** A list of strings; an element of another type is logged and left out. */
export const stringList = compactList<string>((v, path) =>
  typeof v === "string" ? v : misfit(path, null),
);

/** A value that passes `fits`; absent or anything else reads as `absent`. */
export function valueWhere<T, A>(fits: (v: unknown) => v is T, absent: A): Reader<T | A> {
  return (v, path) => (fits(v) ? v : isNullish(v) ? absent : misfit(path, absent));
}

/** One of `values`; absent or anything else reads as `absent`. */
export function oneOf<T extends string, A extends T | null = T>(
  values: readonly T[],
  absent: A,
): Reader<T | A> {
  return valueWhere((v): v is T => values.includes(v as T), absent);
}

/**
 * A GeoPoint. A plain `{ latitude, longitude }` map of numbers in range (written by an older
 * app generation) is the same location and is read as one.
 */
export const geoPoint: Reader<{ latitude: number; longitude: number } | null> = (v, path) => {
  if (v instanceof GeoPoint) return { latitude: v.latitude, longitude: v.longitude };
  if (isNullish(v)) return null;
  if (isMap(v) && inRange(v.latitude, 90) && inRange(v.longitude, 180))
    return { latitude: v.latitude, longitude: v.longitude };
  return misfit(path, null);
};
const inRange = (n: unknown, max: number): n is number =>
  typeof n === "number" && n >= -max && n <= max;

/**
 * Operator overrides `{ perMinute?, perDay? }`; an invalid one is ignored (the next level applies).
 */
export interface RateLimitOverride {
  perMinute?: number;
  perDay?: number;
}
const isLimit = (n: unknown) => n === undefined || (Number.isSafeInteger(n) && (n as number) > 0);
export const rateLimitOverride: Reader<RateLimitOverride | undefined> = (v, path) => {
  if (v === undefined) return undefined;
  if (!isMap(v) || !isLimit(v.perMinute) || !isLimit(v.perDay)) return misfit(path, undefined);
  return { perMinute: v.perMinute as number | undefined, perDay: v.perDay as number | undefined };
};

/** The scopes a company's limits may be arranged for (docs/firestore-data.md, `rateLimits`). */
const LIMIT_SCOPES = ["read", "provisioning"] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

/** `companies.rateLimits`: company-wide fields plus one override per scope. */
export interface CompanyRateLimits extends RateLimitOverride {
  read?: RateLimitOverride;
  provisioning?: RateLimitOverride;
}
const sub = (path: FieldPath, key: string): FieldPath => ({
  ...path,
  field: `${path.field}.${key}`,
});
/** Each part read on its own: an invalid one is ignored with a warning, the rest still apply. */
export const companyRateLimits: Reader<CompanyRateLimits | undefined> = (v, path) => {
  if (v === undefined) return undefined;
  if (!isMap(v)) return misfit(path, undefined);
  const read: CompanyRateLimits = {};
  for (const field of ["perMinute", "perDay"] as const) {
    if (isLimit(v[field])) read[field] = v[field] as number | undefined;
    else misfit(sub(path, field), undefined);
  }
  for (const scope of LIMIT_SCOPES) read[scope] = rateLimitOverride(v[scope], sub(path, scope));
  return read;
};

/** Required fields: a document without them is unusable (StoredDataError). */
export const requiredString: Reader<string> = (v, path) =>
  typeof v === "string" && v !== "" ? v : unusable(path);
export const requiredMap: Reader<Record<string, unknown>> = (v, path) =>
  isMap(v) ? v : unusable(path);
export function requiredOneOf<T extends string>(values: readonly T[]): Reader<T> {
  return (v, path) => (values.includes(v as T) ? (v as T) : unusable(path));
}

export function toIso(value: Timestamp | null): string | null {
  return value ? value.toDate().toISOString() : null;
}
