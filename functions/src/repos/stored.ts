import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { storedDocumentUnusable } from "../logs";
import { fieldAt, FieldPath, misfit, StoredDataError, unusable } from "./fieldPath";

/**
 * Reading the app's documents (docs/firestore-data.md). They come from several app generations,
 * so any field may hold a value of another type. Each field is read on its own by a reader (one
 * per field kind, below): a value that does not fit reads as absent (or the kind's fallback) and
 * is logged once, and the rest of the document is used. Only a missing or invalid required field
 * (e.g. a key's `companyId`) makes the document unusable: StoredDataError.
 */

/**
 * Reads field `key` of the value at `parent` (a map's field name or a list's index). The field's
 * own FieldPath is made only when its value does not fit (misfit, unusable), or by a map or list
 * for its elements: a page of 500 findings reads some 35,000 fields that fit.
 */
export type Reader<T> = (value: unknown, parent: FieldPath, key: string | number) => T;
/** A document's fields and their readers; never changed once read (its entries are kept). */
export type Shape = Readonly<Record<string, Reader<unknown>>>;
export type Stored<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

/** A Firestore map as the SDK returns it (not a Timestamp, GeoPoint, reference, bytes or list). */
export function isMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Each shape's fields and readers, listed once (a page reads a shape 500 times or more), and its
 * blank documents: every field present, in the shape's order, with and without a leading `id`.
 * A document read is a copy of a blank whose fields are then set. Built field by field from `{}`,
 * an object of more than about a dozen fields set by computed keys becomes a hash table in V8
 * (slower to build and to read); a copy of a blank keeps the blank's fixed layout
 * (docs/benchmarks.md, "Twelfth round").
 */
type ShapeParts = {
  fields: Array<[string, Reader<unknown>]>;
  blank: Record<string, unknown>;
  blankWithId: Record<string, unknown>;
};
const shapeParts = new WeakMap<Shape, ShapeParts>();
function partsOf(shape: Shape): ShapeParts {
  let parts = shapeParts.get(shape);
  if (parts === undefined) {
    const fields = Object.entries(shape);
    const blank = Object.fromEntries(fields.map(([key]) => [key, undefined]));
    parts = { fields, blank, blankWithId: { id: undefined, ...blank } };
    shapeParts.set(shape, parts);
  }
  return parts;
}

function readShape<S extends Shape>(
  shape: S,
  input: Record<string, unknown>,
  path: FieldPath,
  id?: string,
): Stored<S> {
  const { fields, blank, blankWithId } = partsOf(shape);
  const out = id === undefined ? { ...blank } : { ...blankWithId };
  if (id !== undefined) out.id = id;
  for (const [key, reader] of fields) out[key] = reader(input[key], path, key);
  return out as Stored<S>;
}

/** A nested map field (e.g. `lastComment`): null when absent or not a map. */
export function storedMap<S extends Shape>(shape: S): Reader<Stored<S> | null> {
  return (value, parent, key) =>
    value === undefined || value === null
      ? null
      : isMap(value)
        ? readShape(shape, value, fieldAt(parent, key))
        : misfit(parent, key, null);
}

/**
 * A list field: `[]` when absent or not a list. An element that does not fit becomes null, so
 * the others keep their positions; `element` must read a misfit as null (a map, a nullable kind).
 */
export function storedList<T>(element: Reader<T | null>): Reader<Array<T | null>> {
  return (value, parent, key) => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return misfit(parent, key, []);
    const path = fieldAt(parent, key);
    return value.map((item: unknown, index) => {
      const read = item === undefined || item === null ? null : element(item, path, index);
      return read === null ? misfit(path, index, null) : read;
    });
  };
}

/** A list field whose elements that do not fit are left out (logged). */
export function compactList<T>(element: Reader<T | null>): Reader<T[]> {
  const list = storedList(element);
  return (value, parent, key) => list(value, parent, key).filter((item) => item !== null);
}

export type StoredSnapshot = { id: string; ref: { path: string }; data(): unknown };

/** A document snapshot read by parseStored, with its `id`. */
export function parseSnapshot<S extends Shape>(
  shape: S,
  snap: StoredSnapshot,
): Stored<S> & { id: string } {
  return parseStored(shape, snap.ref.path, snap.data(), snap.id);
}

/**
 * Reads a stored document, with its `id` first when given. Throws StoredDataError only when
 * unusable.
 */
export function parseStored<S extends Shape>(shape: S, document: string, data: unknown): Stored<S>;
export function parseStored<S extends Shape>(
  shape: S,
  document: string,
  data: unknown,
  id: string,
): Stored<S> & { id: string };
export function parseStored<S extends Shape>(
  shape: S,
  document: string,
  data: unknown,
  id?: string,
): Stored<S> {
  try {
    return readShape(shape, isMap(data) ? data : {}, new FieldPath(document), id);
  } catch (err) {
    if (err instanceof StoredDataError)
      storedDocumentUnusable({ document: err.document, field: err.field });
    throw err;
  }
}

/** Like parseStored, but an unusable document reads as null (already logged). */
export function parseStoredOrNull<S extends Shape>(
  shape: S,
  document: string,
  data: unknown,
): Stored<S> | null {
  try {
    return parseStored(shape, document, data);
  } catch (err) {
    if (err instanceof StoredDataError) return null;
    throw err;
  }
}

/** The readers of the stored field kinds, one per kind. */
const isNullish = (v: unknown): v is null | undefined => v === null || v === undefined;

export const timestamp: Reader<Timestamp | null> = (v, parent, key) =>
  v instanceof Timestamp ? v : isNullish(v) ? null : misfit(parent, key, null);
export const nullableString: Reader<string | null> = (v, parent, key) =>
  typeof v === "string" ? v : isNullish(v) ? null : misfit(parent, key, null);
export const nullableNumber: Reader<number | null> = (v, parent, key) =>
  typeof v === "number" && Number.isFinite(v) ? v : isNullish(v) ? null : misfit(parent, key, null);
export const nullableInteger: Reader<number | null> = (v, parent, key) =>
  Number.isSafeInteger(v) ? (v as number) : isNullish(v) ? null : misfit(parent, key, null);
export const nullableFlag: Reader<boolean | null> = (v, parent, key) =>
  typeof v === "boolean" ? v : isNullish(v) ? null : misfit(parent, key, null);
export const text: Reader<string> = (v, parent, key) =>
  typeof v === "string" ? v : isNullish(v) ? "" : misfit(parent, key, "");
export const flag: Reader<boolean> = (v, parent, key) =>
  typeof v === "boolean" ? v : isNullish(v) ? false : misfit(parent, key, false);
/**
 * A whole number of at least 0 (e.g. days lost: IG 3 types it an integer); a negative or fractional
 * one reads as absent, logged.
 */
export const nonNegativeInteger: Reader<number | null> = (v, parent, key) =>
  Number.isSafeInteger(v) && (v as number) >= 0
    ? (v as number)
    : isNullish(v)
      ? null
      : misfit(parent, key, null);
/**
 * The one hidden rule: absent, null and `false` show; `true` and any other value (`"true"`, `1`,
 * …) hide, never show. The listings, the change records, ESRS and the KPI rollup all apply it.
 */
export const isHiddenValue = (v: unknown): boolean => !isNullish(v) && v !== false;
/** `hidden` and `deleted` flags, by that rule; a value that is not a boolean is logged. */
export const hiddenFlag: Reader<boolean> = (v, parent, key) =>
  typeof v === "boolean" || isNullish(v) ? isHiddenValue(v) : misfit(parent, key, true);
export const freeForm: Reader<Record<string, unknown>> = (v, parent, key) =>
  isMap(v) ? v : isNullish(v) ? {} : misfit(parent, key, {});
/** Any value, as stored (e.g. `markers` items, `storageRef`, checked where it is used). */
export const anyValue: Reader<unknown> = (v) => v;

/** A list of strings; an element of another type is logged and left out. */
export const stringList = compactList<string>((v, parent, key) =>
  typeof v === "string" ? v : misfit(parent, key, null),
);

/** A value that passes `fits`; absent or anything else reads as `absent`. */
export function valueWhere<T, A>(fits: (v: unknown) => v is T, absent: A): Reader<T | A> {
  return (v, parent, key) => (fits(v) ? v : isNullish(v) ? absent : misfit(parent, key, absent));
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
export const geoPoint: Reader<{ latitude: number; longitude: number } | null> = (
  v,
  parent,
  key,
) => {
  if (v instanceof GeoPoint) return { latitude: v.latitude, longitude: v.longitude };
  if (isNullish(v)) return null;
  if (isMap(v) && inRange(v.latitude, 90) && inRange(v.longitude, 180))
    return { latitude: v.latitude, longitude: v.longitude };
  return misfit(parent, key, null);
};
const inRange = (n: unknown, max: number): n is number =>
  typeof n === "number" && n >= -max && n <= max;

/** Required fields: a document without them is unusable (StoredDataError). */
export const requiredString: Reader<string> = (v, parent, key) =>
  typeof v === "string" && v !== "" ? v : unusable(parent, key);
export const requiredMap: Reader<Record<string, unknown>> = (v, parent, key) =>
  isMap(v) ? v : unusable(parent, key);
export function requiredOneOf<T extends string>(values: readonly T[]): Reader<T> {
  return (v, parent, key) => (values.includes(v as T) ? (v as T) : unusable(parent, key));
}
