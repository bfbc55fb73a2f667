import { firstTimeFilter } from "../lib/bounded";
import { storedDocumentUnusable, storedFieldInvalid } from "../logs";

/**
 * Reading the app's documents (docs/firestore-data.md). They come from several app generations,
 * so any field may hold a value of another type. Each field is read on its own by a reader (one
 * per field kind, storedFields.ts): a value that does not fit reads as absent (or the kind's
 * fallback) and is logged once, and the rest of the document is used. Only a missing or invalid
 * required field (e.g. a key's `companyId`) makes the document unusable: StoredDataError.
 */

/** Where a value is read: its document and its dotted field path there (`checklist.3.title`). */
export interface FieldPath {
  readonly document: string;
  readonly field: string;
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

const fieldAt = (path: FieldPath, key: string | number): FieldPath => ({
  document: path.document,
  field: path.field === "" ? String(key) : `${path.field}.${key}`,
});

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
    return readShape(shape, isMap(data) ? data : {}, { document, field: "" }, id);
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
