/** A value built at its first use and kept; a failed build is retried by the next use. */
export function lazyOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= build().catch((err: unknown) => {
      value = undefined;
      throw err;
    }));
}

/** How long an instance whose code failed to load goes on answering before it exits. */
export const EXIT_AFTER_MS = 2000;

/**
 * Our code loaded at its first use (`import()` of a module: a chunk of the bundle), ending the
 * instance when it fails. Node keeps an ES module that failed to load or to run in its failed
 * state, so every later import of it in this process would fail the same way and the instance
 * would answer errors until it is recycled. So a failed load is thrown to the caller, which
 * answers (and logs) its request, and the process exits EXIT_AFTER_MS later (once, however many
 * loads fail; where the platform gives an idle instance no CPU, at the latest when its next request
 * arrives): the platform starts a fresh instance. The bundles' deferred Admin SDK files do the
 * same (scripts/bundle.mjs).
 */
export async function loadOrExit<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (process.exitCode !== 1) {
      process.exitCode = 1;
      setTimeout(() => process.exit(1), EXIT_AFTER_MS).unref();
    }
    throw err;
  }
}
