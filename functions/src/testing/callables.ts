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
    const wrapped = fft.wrap(fn as never) as unknown as (req: unknown) => Promise<Record<string, unknown>>;
    return (data, who) => wrapped({ data, ...(who ? { auth: { uid: who.uid, token: who.token } } : {}) });
  };
  return { callable, cleanup: () => fft.cleanup() };
}

export const rejectsWith = (p: Promise<unknown>, code: string) => expect(p).rejects.toMatchObject({ code });
