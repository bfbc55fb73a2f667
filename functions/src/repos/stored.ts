import { z } from "zod";
import { storedDocumentUnusable, storedFieldInvalid } from "../logs";
import { firstTimeFilter } from "../lib/bounded";

/**
 * Reading the app's documents (docs/firestore-data.md). They come from several app generations,
 * so any field may hold a value of another type. The rule for every repo:
 * - each field is read on its own; one that does not fit is read as absent (absent and null
 *   mean the same in the contract) or as its declared fallback (`orWhenInvalid`), and the
 *   document path and field are logged once as a warning; the rest of the document is used;
 * - inside lists, an element that does not fit becomes `null` (positions are kept);
 * - only a document missing a field the API cannot do without (one whose schema has no absent
 *   reading and no fallback, e.g. a key's `companyId`) is unusable: StoredDataError.
 *
 * A document is described by a shape (a plain object of field schemas), not a z.object, so
 * one bad field can never fail the whole parse.
 */
export type Shape = Record<string, z.ZodType>;
export type Stored<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

export class StoredDataError extends Error {
  constructor(readonly document: string, readonly field: string) {
    super(`document ${document} is unusable: field ${field} is missing or invalid`);
    this.name = "StoredDataError";
  }
}

/** The document being read and where in it. zod parses synchronously, so one slot suffices. */
let reading: { document: string; at: Array<string | number> } | null = null;

/** Fields already logged by this instance: one line per document and field. */
const firstWarning = firstTimeFilter(5000);

function noteInvalid(): void {
  if (!reading) return;
  const field = reading.at.join(".");
  if (firstWarning(`${reading.document}\u0000${field}`)) storedFieldInvalid({ document: reading.document, field });
}

const fallbacks = new WeakMap<z.ZodType, unknown>();

/**
 * The hot path. Most stored values fit their schema, and a zod parse per field (some 75 per
 * finding) cost more than reading the document itself. So the common field schemas
 * (storedFields.ts) carry a plain reader that returns the value when it fits, or MISFIT; only a
 * misfit goes through zod (which then decides the fallback and logs). Each reader must accept exactly what its zod
 * schema accepts, with the same output (test/unit/storedFast.test.ts checks them side by side).
 */
export const MISFIT: unique symbol = Symbol("misfit");
type FastReader = (value: unknown, key: string | number) => unknown;
const fastReaders = new WeakMap<z.ZodType, FastReader>();

export function withFastReader<S extends z.ZodType>(schema: S, reader: FastReader): S {
  fastReaders.set(schema, reader);
  return schema;
}

/** Runs `read` with `key` on the path being read, so a nested misfit is logged with its full path. */
function at<T>(key: string | number, read: () => T): T {
  reading?.at.push(key);
  try {
    return read();
  } finally {
    reading?.at.pop();
  }
}

/** Declares the value an invalid stored value is read as, where "absent" would be unsafe. */
export function orWhenInvalid<S extends z.ZodType>(schema: S, value: z.output<S>): S {
  fallbacks.set(schema, value);
  return schema;
}

/** A field read by its zod schema alone: the reference every fast reader must agree with. */
export function readByZod<S extends z.ZodType>(schema: S, value: unknown, key: string | number = "field"): z.output<S> {
  reading?.at.push(key);
  try {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    noteInvalid();
    if (fallbacks.has(schema)) return fallbacks.get(schema) as z.output<S>;
    const absent = schema.safeParse(undefined);
    if (absent.success) return absent.data;
    throw new StoredDataError(reading?.document ?? "?", reading?.at.join(".") ?? String(key));
  } finally {
    reading?.at.pop();
  }
}

/** A Firestore map as the SDK returns it (not a Timestamp, GeoPoint, reference, bytes or list). */
function isMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A shape as read: its fields with their fast readers (looked up once per shape, not per field
 * read), and blank objects that already hold its keys in order, with and without a leading `id`.
 * A document is read into a copy of a blank: an object grown key by key past a dozen keys turns
 * into a hash table in V8 (three times the memory of a literal, and slower to read), while a copy
 * of one made by JSON.parse is as compact as a literal (about 540 bytes a finding, not 1,850).
 */
type Field = { key: string; schema: z.ZodType; fast: FastReader | undefined };
type Compiled = { fields: Field[]; blank: Record<string, null>; blankWithId: Record<string, null> };
const compiledShapes = new WeakMap<Shape, Compiled>();

function compiled(shape: Shape): Compiled {
  let found = compiledShapes.get(shape);
  if (!found) {
    const keys = Object.keys(shape);
    const blank = (names: string[]) => JSON.parse(JSON.stringify(Object.fromEntries(names.map((name) => [name, null])))) as Record<string, null>;
    found = { fields: keys.map((key) => ({ key, schema: shape[key], fast: fastReaders.get(shape[key]) })), blank: blank(keys), blankWithId: blank(["id", ...keys]) };
    compiledShapes.set(shape, found);
  }
  return found;
}

function readShape<S extends Shape>(shape: S, input: Record<string, unknown>, id?: string): Stored<S> {
  const { fields, blank, blankWithId } = compiled(shape);
  const out: Record<string, unknown> = id === undefined ? { ...blank } : { ...blankWithId, id };
  for (const { key, schema, fast } of fields) {
    const value = input[key];
    const read = fast ? fast(value, key) : MISFIT;
    out[key] = read === MISFIT ? readByZod(schema, value, key) : read;
  }
  return out as Stored<S>;
}

/** A nested map field (e.g. `lastComment`): null when absent or not a map. */
export function storedMap<S extends Shape>(shape: S) {
  const schema = z.unknown().transform((input): Stored<S> | null => {
    if (input === undefined || input === null) return null;
    if (!isMap(input)) {
      noteInvalid();
      return null;
    }
    return readShape(shape, input);
  });
  return withFastReader(schema, (input, key) => (input === undefined || input === null ? null : isMap(input) ? at(key, () => readShape(shape, input)) : MISFIT));
}

/** One list element: its value when it fits (and is not null), else null (logged). */
function readElement<S extends z.ZodType>(element: S, item: unknown, index: number): z.output<S> | null {
  const fast = item === null || item === undefined ? undefined : fastReaders.get(element);
  if (fast) {
    const read = fast(item, index);
    if (read !== MISFIT && read !== null) return read as z.output<S>;
  }
  return at(index, () => {
    const parsed = item === null || item === undefined ? null : element.safeParse(item);
    if (parsed?.success && parsed.data !== null) return parsed.data;
    noteInvalid();
    return null;
  });
}

/** A list field: `[]` when absent or not a list; an element that does not fit becomes null. */
export function storedList<S extends z.ZodType>(element: S) {
  const schema = z.unknown().transform((input): Array<z.output<S> | null> => {
    if (input === undefined || input === null) return [];
    if (!Array.isArray(input)) {
      noteInvalid();
      return [];
    }
    return input.map((item, index) => readElement(element, item, index));
  });
  return withFastReader(schema, (input, key) =>
    input === undefined || input === null ? [] : Array.isArray(input) ? at(key, () => input.map((item, index) => readElement(element, item, index))) : MISFIT,
  );
}

export type StoredSnapshot = { id: string; ref: { path: string }; data(): unknown };

/** A document snapshot read by parseStored, with its `id`. */
export function parseSnapshot<S extends Shape>(shape: S, snap: StoredSnapshot): Stored<S> & { id: string } {
  return parseStored(shape, snap.ref.path, snap.data(), snap.id);
}

/**
 * Reads a stored document (see the module comment), with its `id` first when given (one object
 * built: a page reads hundreds). Throws StoredDataError only when unusable.
 */
export function parseStored<S extends Shape>(shape: S, document: string, data: unknown): Stored<S>;
export function parseStored<S extends Shape>(shape: S, document: string, data: unknown, id: string): Stored<S> & { id: string };
export function parseStored<S extends Shape>(shape: S, document: string, data: unknown, id?: string): Stored<S> {
  const outer = reading;
  reading = { document, at: [] };
  try {
    return readShape(shape, isMap(data) ? data : {}, id);
  } catch (err) {
    if (err instanceof StoredDataError) storedDocumentUnusable({ document: err.document, field: err.field });
    throw err;
  } finally {
    reading = outer;
  }
}

/** Like parseStored, but an unusable document reads as null (already logged). */
export function parseStoredOrNull<S extends Shape>(shape: S, document: string, data: unknown): Stored<S> | null {
  try {
    return parseStored(shape, document, data);
  } catch (err) {
    if (err instanceof StoredDataError) return null;
    throw err;
  }
}
