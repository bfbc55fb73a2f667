import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { z } from "../http/zod";

/**
 * Building blocks for the stored-document schemas of firestore-schema.md. They are lenient
 * in the way the contract allows (absent and null mean the same) and strict about types, so
 * a document the app wrote in an unexpected shape is caught here rather than deep in a handler.
 */
export const timestamp = z.instanceof(Timestamp).nullish().transform((v) => v ?? null);
export const nullableString = z.string().nullish().transform((v) => v ?? null);
export const nullableNumber = z.number().nullish().transform((v) => v ?? null);
export const text = z.string().nullish().transform((v) => v ?? "");
export const flag = z.boolean().nullish().transform((v) => v ?? false);
export const geoPoint = z.instanceof(GeoPoint).nullish().transform((v) => v ?? null);
export const freeForm = z.record(z.string(), z.unknown()).nullish().transform((v) => v ?? {});

/**
 * Operator overrides `{ perMinute?, perDay? }`. A malformed override is ignored (the next
 * level applies) instead of locking every key of a company out.
 */
export const rateLimitOverride = z
  .object({
    perMinute: z.number().int().positive().optional(),
    perDay: z.number().int().positive().optional(),
  })
  .optional()
  .catch(undefined);

export class StoredDataError extends Error {
  constructor(path: string, issues: string) {
    super(`document ${path} does not match the data contract: ${issues}`);
    this.name = "StoredDataError";
  }
}

/** Parses a stored document, naming the path (never the values) when it does not fit. */
export function parseStored<S extends z.ZodType>(schema: S, path: string, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new StoredDataError(path, result.error.issues.map((i) => `${i.path.join(".")}: ${i.code}`).join("; "));
  }
  return result.data;
}

export function toIso(value: Timestamp | null): string | null {
  return value ? value.toDate().toISOString() : null;
}
