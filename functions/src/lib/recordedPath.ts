/** The longest request path an audit entry or a log line keeps (docs/firestore-data.md). */
export const MAX_RECORDED_PATH = 512;

/**
 * A request path as audit entries and log lines record it: at most MAX_RECORDED_PATH characters,
 * a longer one cut (never inside a surrogate pair) and ended with `…`. A keyed request to an
 * unknown path of 16 KiB would otherwise store all of it, once per request. Imports nothing, so
 * the answer of an app that failed to load (http/appUnavailable.ts) can use it.
 */
export function recordedPath(path: string): string {
  if (path.length <= MAX_RECORDED_PATH) return path;
  let cut = MAX_RECORDED_PATH - 1;
  const last = path.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${path.slice(0, cut)}…`;
}
