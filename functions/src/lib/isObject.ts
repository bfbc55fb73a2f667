/** A JSON object: not null, not an array (what a request body's members are checked with). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
