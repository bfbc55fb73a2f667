import { firstTimeFilter } from "../lib/bounded";
import { storedFieldInvalid } from "../logs";

/** Where a stored value is read, and what a value that does not fit does (see ./stored). */

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

/** A document that cannot be used: a required field is missing or invalid. */
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

/**
 * Logs a value that does not fit, field `key` of the value at `parent` (once per document and
 * field), and returns what it reads as.
 */
export function misfit<T>(parent: FieldPath, key: string | number, reading: T): T {
  const { document, field } = fieldAt(parent, key);
  if (firstWarning(`${document}\u0000${field}`)) storedFieldInvalid({ document, field });
  return reading;
}

/** A required field is missing or invalid: the whole document is unusable. */
export function unusable(parent: FieldPath, key: string | number): never {
  misfit(parent, key, undefined);
  throw new StoredDataError(parent.document, fieldAt(parent, key).field);
}
