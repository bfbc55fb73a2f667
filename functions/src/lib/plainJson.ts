import { DocumentReference, GeoPoint, Timestamp } from "firebase-admin/firestore";
import { toIso } from "./dates";

/**
 * Turns a free-form Firestore value into plain JSON: Timestamps become ISO-8601 UTC strings (as
 * every served date: `toIso`), GeoPoints `{ latitude, longitude }`, references their path.
 * Everything else is kept.
 */
export function toPlainJson(value: unknown): unknown {
  if (value instanceof Timestamp) return toIso(value);
  if (value instanceof GeoPoint) return { latitude: value.latitude, longitude: value.longitude };
  if (value instanceof DocumentReference) return value.path;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainJson(v)]));
  }
  return value;
}
