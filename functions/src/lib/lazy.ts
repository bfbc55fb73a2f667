/** A value built at its first use and kept; a failed build is retried by the next use. */
export function lazyOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= build().catch((err: unknown) => {
      value = undefined;
      throw err;
    }));
}
