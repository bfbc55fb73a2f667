/**
 * JSON with every object's keys sorted, recursively: two bodies that differ only in the order of
 * their keys give the same text (the Idempotency-Key fingerprint, http/idempotency.ts).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
