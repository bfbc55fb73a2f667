import functionsTest from "firebase-functions-test";
import type { signedIn } from "./authUsers";

/**
 * Callable functions invoked as the app would, through firebase-functions-test, with a real
 * Auth-emulator identity (or none). Call `cleanup` in afterAll.
 */
export type Caller = Awaited<ReturnType<typeof signedIn>>;
export type Call = (data: unknown, who?: Caller | null) => Promise<Record<string, unknown>>;

export function callables() {
  const fft = functionsTest({ projectId: process.env.GCLOUD_PROJECT });
  const callable = (fn: unknown): Call => {
    const wrapped = fft.wrap(fn as never) as unknown as (
      req: unknown,
    ) => Promise<Record<string, unknown>>;
    return (data, who) =>
      wrapped({ data, ...(who ? { auth: { uid: who.uid, token: who.token } } : {}) });
  };
  return { callable, cleanup: () => fft.cleanup() };
}

/**
 * Resolves when `p` rejects with this callable error code; rejects (failing the test) otherwise.
 */
export async function rejectsWith(p: Promise<unknown>, code: string): Promise<void> {
  const outcome = await p.then(
    (value) => ({ rejected: false as const, value }),
    (err: unknown) => ({ rejected: true as const, code: (err as { code?: unknown } | null)?.code }),
  );
  if (!outcome.rejected)
    throw new Error(
      `expected a rejection with code ${code}, but the call succeeded: ${JSON.stringify(outcome.value)}`,
    );
  if (outcome.code !== code)
    throw new Error(`expected a rejection with code ${code}, got ${String(outcome.code)}`);
}
