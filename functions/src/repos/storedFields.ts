import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { z } from "zod";
import { timestampIso } from "../lib/dates";
import { MISFIT, orWhenInvalid, storedList, withFastReader } from "./stored";

/** The field schemas of the stored shapes (see stored.ts for how a document is read with them). */
const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;

export const timestamp = withFastReader(z.instanceof(Timestamp).nullish().transform((v) => v ?? null), (v) => (v instanceof Timestamp ? v : isNullish(v) ? null : MISFIT));
export const nullableString = withFastReader(z.string().nullish().transform((v) => v ?? null), (v) => (typeof v === "string" ? v : isNullish(v) ? null : MISFIT));
export const nullableNumber = withFastReader(z.number().nullish().transform((v) => v ?? null), (v) => (typeof v === "number" && Number.isFinite(v) ? v : isNullish(v) ? null : MISFIT));
export const nullableInteger = withFastReader(z.number().int().nullish().transform((v) => v ?? null), (v) => (Number.isSafeInteger(v) ? (v as number) : isNullish(v) ? null : MISFIT));
export const text = withFastReader(z.string().nullish().transform((v) => v ?? ""), (v) => (typeof v === "string" ? v : isNullish(v) ? "" : MISFIT));
export const flag = withFastReader(z.boolean().nullish().transform((v) => v ?? false), (v) => (typeof v === "boolean" ? v : isNullish(v) ? false : MISFIT));
export const freeForm = z.record(z.string(), z.unknown()).nullish().transform((v) => v ?? {});
const anyString = withFastReader(z.string(), (v) => (typeof v === "string" ? v : MISFIT));
export const stringList = withFastReader(
  storedList(anyString).transform((items) => items.filter((v): v is string => v !== null)),
  (v) => (isNullish(v) ? [] : Array.isArray(v) && v.every((item) => typeof item === "string") ? [...v] : MISFIT),
);
/** Any value, as stored (e.g. `markers` items, `storageRef`, checked where it is used). */
export const anyValue = withFastReader(z.unknown(), (v) => v);

/** `hidden` and `deleted` flags: anything but absent, null or `false` excludes, never shows. */
export const hiddenFlag = withFastReader(orWhenInvalid(z.boolean().nullish().transform((v) => v ?? false), true), (v) => (typeof v === "boolean" ? v : isNullish(v) ? false : MISFIT));

/**
 * A GeoPoint. A plain `{ latitude, longitude }` map of numbers in range (written by an older
 * app generation) is the same location and is read as one.
 */
export const geoPoint = withFastReader(
  z
    .union([
      z.instanceof(GeoPoint),
      z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }),
    ])
    .nullish()
    .transform((v) => (v ? { latitude: v.latitude, longitude: v.longitude } : null)),
  (v) => (v instanceof GeoPoint ? { latitude: v.latitude, longitude: v.longitude } : isNullish(v) ? null : MISFIT),
);

/** Operator overrides `{ perMinute?, perDay? }`; an invalid one is ignored (the next level applies). */
export const rateLimitOverride = z
  .object({
    perMinute: z.number().int().positive().optional(),
    perDay: z.number().int().positive().optional(),
  })
  .optional();

export function toIso(value: Timestamp | null): string | null {
  return value ? timestampIso(value) : null;
}
