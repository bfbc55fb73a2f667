/**
 * The three `storageRef` shapes of the data contract:
 * 1. `gs://BUCKET/path/to/object`
 * 2. `https://firebasestorage.googleapis.com/v0/b/BUCKET/o/ENCODED_PATH?alt=media&token=…`
 * 3. a bare object path `path/to/object` (the default bucket)
 * Anything else is unrecognised.
 */
export type StorageLocation = { bucket: string; path: string } | null;

const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
const GS = /^gs:\/\/([^/]+)\/(.+)$/;
const BARE = /^(?![a-z][a-z0-9+.-]*:)(?!\/)[^\s?#]+$/i;

function validPath(path: string): boolean {
  return (
    path.length > 0 &&
    path.length <= 1024 &&
    !path.includes("\n") &&
    !path.split("/").some((p) => p === "." || p === "..")
  );
}

export function parseStorageRef(ref: unknown, defaultBucket: string): StorageLocation {
  if (typeof ref !== "string") return null;
  const value = ref.trim();
  if (!value) return null;
  const gs = GS.exec(value);
  if (gs) return BUCKET.test(gs[1]) && validPath(gs[2]) ? { bucket: gs[1], path: gs[2] } : null;
  if (/^https?:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.protocol !== "https:" || url.hostname !== "firebasestorage.googleapis.com") return null;
    const m = /^\/v0\/b\/([^/]+)\/o\/([^/]+)$/.exec(url.pathname);
    if (!m) return null;
    let path: string;
    try {
      path = decodeURIComponent(m[2]);
    } catch {
      return null;
    }
    return BUCKET.test(m[1]) && validPath(path) ? { bucket: m[1], path } : null;
  }
  return BARE.test(value) && validPath(value) ? { bucket: defaultBucket, path: value } : null;
}
