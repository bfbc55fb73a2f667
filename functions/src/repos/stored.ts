import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { firstTimeFilter } from "../lib/bounded";
import { storedDocumentUnusable, storedFieldInvalid } from "../logs";

/**
 * Reading the app's documents (docs/firestore-data.md). They come from several app generations,
 * so any field may hold a value of another type. Each field is read on its own by a reader (one
 * per field kind, below): a value that does not fit reads as absent (or the kind's fallback) and
 * is logged once, and the rest of the document is used. Only a missing or invalid required field
 * (e.g. a key's `companyId`) makes the document unusable: StoredDataError.
 */

/**
 * Where a value is read: its document and its dotted field path there (`checklist.3.title`). The
 * path's text is built only when asked for, which is when a value does not fit: a page reads
 * tens of thousands of fields that fit.
 */
export class FieldPath {
  constructor(
    readonly document: string,
    private readonly parent: FieldPath | null = null,
    private readonly key: string | number = "",
  ) {}

  get field(): string {
    if (this.parent === null) return "";
    const above = this.parent.field;
    return above === "" ? String(this.key) : `${above}.${this.key}`;
  }
}

export type Reader<T> = (value: unknown, path: FieldPath) => T;
export type Shape = Record<string, Reader<unknown>>;
export type Stored<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

export class StoredDataError extends Error {
  constructor(
    readonly document: string,
    readonly field: string,
  ) {
    super(`document ${document} is unusable: field ${field} is missing or invalid`);
    this.name = "StoredDataError";
  }
}

/** The path of a field or list element inside the value at `path`. */
export const fieldAt = (path: FieldPath, key: string | number): FieldPath =>
  new FieldPath(path.document, path, key);

/** Fields already logged by this instance: one line per document and field. */
const firstWarning = firstTimeFilter(5000);

/** Logs a value that does not fit (once per document and field) and returns what it reads as. */
export function misfit<T>(path: FieldPath, reading: T): T {
  if (firstWarning(`${path.document}\u0000${path.field}`))
    storedFieldInvalid({ document: path.document, field: path.field });
  return reading;
}

/** A required field is missing or invalid: the whole document is unusable. */
export function unusable(path: FieldPath): never {
  misfit(path, undefined);
  throw new StoredDataError(path.document, path.field);
}

/** A Firestore map as the SDK returns it (not a Timestamp, GeoPoint, reference, bytes or list). */
export function isMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function readShape<S extends Shape>(
  shape: S,
  input: Record<string, unknown>,
  path: FieldPath,
  id?: string,
): Stored<S> {
  const out: Record<string, unknown> = id === undefined ? {} : { id };
  for (const key of Object.keys(shape)) out[key] = shape[key](input[key], fieldAt(path, key));
  return out as Stored<S>;
}

/** A nested map field (e.g. `lastComment`): null when absent or not a map. */
export function storedMap<S extends Shape>(shape: S): Reader<Stored<S> | null> {
  return (value, path) =>
    value === undefined || value === null
      ? null
      : isMap(value)
        ? readShape(shape, value, path)
        : misfit(path, null);
}

/**
 * A list field: `[]` when absent or not a list. An element that does not fit becomes null, so
 * the others keep their positions; `element` must read a misfit as null (a map, a nullable kind).
 */
export function storedList<T>(element: Reader<T | null>): Reader<Array<T | null>> {
  return (value, path) => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) return misfit(path, []);
    return value.map((item: unknown, index) => {
      const at = fieldAt(path, index);
      const read = item === undefined || item === null ? null : element(item, at);
      return read === null ? misfit(at, null) : read;
    });
  };
}

/** A list field whose elements that do not fit are left out (logged). */
export function compactList<T>(element: Reader<T | null>): Reader<T[]> {
  const list = storedList(element);
  return (value, path) => list(value, path).filter((item) => item !== null);
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

/** Required fields: a document without them is unusable (StoredDataError). */
export const requiredString: Reader<string> = (v, path) =>
  typeof v === "string" && v !== "" ? v : unusable(path);
export const requiredMap: Reader<Record<string, unknown>> = (v, path) =>
  isMap(v) ? v : unusable(path);
export function requiredOneOf<T extends string>(values: readonly T[]): Reader<T> {
  return (v, path) => (values.includes(v as T) ? (v as T) : unusable(path));
}
