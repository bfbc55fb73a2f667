import { DocumentReference, GeoPoint, Timestamp } from "firebase-admin/firestore";
import { referenceAt, type Cursor } from "./rangeQuery";

/**
 * A Firestore value as JSON, tagged by type, so a query can resume exactly after it
 * (`startAfter(value, id)`). List queries order by a timestamp field, but a document written
 * with another type there (a string, a number, a map…) is still returned, sorted by
 * Firestore's type order; resuming after it needs that same value, or paging would restart
 * at the beginning and never get past it.
 */
export type OrderValue =
  | null
  | boolean
  | ["t", number, number]
  | ["n", number | "NaN" | "Infinity" | "-Infinity"]
  | ["s", string]
  | ["y", string]
  | ["r", string]
  | ["g", number, number]
  | ["a", OrderValue[]]
  | ["m", Array<[string, OrderValue]>];

function encodeNumber(n: number): OrderValue {
  return [
    "n",
    Number.isNaN(n) ? "NaN" : n === Infinity ? "Infinity" : n === -Infinity ? "-Infinity" : n,
  ];
}

function encodeOrderValue(value: unknown): OrderValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return encodeNumber(value);
  if (typeof value === "string") return ["s", value];
  if (value instanceof Timestamp) return ["t", value.seconds, value.nanoseconds];
  if (value instanceof GeoPoint) return ["g", value.latitude, value.longitude];
  if (value instanceof DocumentReference) return ["r", value.path];
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return ["y", Buffer.from(value).toString("base64")];
  if (Array.isArray(value)) return ["a", value.map(encodeOrderValue)];
  if (typeof value === "object")
    return [
      "m",
      Object.entries(value).map(([k, v]): [string, OrderValue] => [k, encodeOrderValue(v)]),
    ];
  return null;
}

const NUMBERS: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Infinity,
  "-Infinity": -Infinity,
};

/** The value back, or `undefined` when the input is not an encoding this module wrote. */
function decodeOrderValue(
  encoded: unknown,
  reference: (path: string) => DocumentReference | undefined,
): unknown {
  if (encoded === null || typeof encoded === "boolean") return encoded;
  if (!Array.isArray(encoded)) return undefined;
  const [tag, a, b] = encoded as [unknown, unknown, unknown];
  switch (tag) {
    case "t":
      return Number.isInteger(a) && Number.isInteger(b) && (b as number) >= 0 && (b as number) < 1e9
        ? new Timestamp(a as number, b as number)
        : undefined;
    case "n":
      return typeof a === "number"
        ? a
        : typeof a === "string" && a in NUMBERS
          ? NUMBERS[a]
          : undefined;
    case "s":
      return typeof a === "string" ? a : undefined;
    case "y":
      return typeof a === "string" ? Buffer.from(a, "base64") : undefined;
    case "r":
      return typeof a === "string" && a.length > 0 ? reference(a) : undefined;
    case "g":
      return typeof a === "number" &&
        typeof b === "number" &&
        Math.abs(a) <= 90 &&
        Math.abs(b) <= 180
        ? new GeoPoint(a, b)
        : undefined;
    case "a": {
      if (!Array.isArray(a)) return undefined;
      const items = a.map((item) => decodeOrderValue(item, reference));
      return items.includes(undefined) ? undefined : items;
    }
    case "m": {
      if (!Array.isArray(a)) return undefined;
      const entries = a.map((entry) =>
        Array.isArray(entry) && typeof entry[0] === "string"
          ? [entry[0], decodeOrderValue(entry[1], reference)]
          : [null, undefined],
      );
      return entries.some(([k, v]) => k === null || v === undefined)
        ? undefined
        : Object.fromEntries(entries);
    }
    default:
      return undefined;
  }
}

/**
 * Encoded values longer than this resume from the document itself instead (`startAfter` of its
 * snapshot): a timestamp takes about 30 characters, and a token stays small whatever bad data
 * holds.
 */
const MAX_VALUE_CHARS = 64;
const SNAPSHOT_TAG = "d";

const toBase64url = (id: string) => Buffer.from(id, "utf8").toString("base64url");
const BASE64URL_ID = /^[A-Za-z0-9_-]{1,2048}$/;

function reference(path: string): DocumentReference | undefined {
  try {
    return referenceAt(path);
  } catch {
    return undefined; // not a document path: not a cursor of ours
  }
}

/** A cursor as JSON for a page token: `[value, base64url(id)]`, ids of any length and content. */
export function encodeCursor(cursor: Cursor): unknown {
  const value = encodeOrderValue(cursor.value);
  return JSON.stringify(value).length > MAX_VALUE_CHARS
    ? [[SNAPSHOT_TAG], toBase64url(cursor.id)]
    : [value, toBase64url(cursor.id)];
}

/** The cursor back, or null when the JSON is no cursor this API wrote. */
export function decodeCursor(json: unknown): Cursor | null {
  if (!Array.isArray(json)) return null;
  if (json.length !== 2 || typeof json[1] !== "string" || !BASE64URL_ID.test(json[1])) return null;
  const id = Buffer.from(json[1], "base64url").toString("utf8");
  if (Array.isArray(json[0]) && json[0].length === 1 && json[0][0] === SNAPSHOT_TAG)
    return { value: undefined, id, bySnapshot: true };
  const value = decodeOrderValue(json[0], reference);
  return value === undefined ? null : { value, id };
}
