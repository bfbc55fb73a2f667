import {
  HttpsError,
  type CallableRequest,
  type FunctionsErrorCode,
} from "firebase-functions/v2/https";
import type { z } from "../http/zod";
import { callableFailed } from "../logs";
import { findUser } from "../repos/users";
import { KeyAdminError, personName, type Caller } from "../services/adminAccess";

/**
 * The shared shell of the console's callables: Firebase Auth required, input validated by
 * zod (`invalid-argument` naming the field), service errors mapped to callable error codes,
 * anything unexpected logged and answered as `internal` without details.
 */
async function callerOf(request: CallableRequest<unknown>): Promise<Caller> {
  const auth = request.auth;
  if (!auth) throw new HttpsError("unauthenticated", "Sign in to manage API access.");
  const user = await findUser(auth.uid);
  const admin = auth.token.admin === true;
  const verified = auth.token.email_verified === true ? auth.token.email : undefined;
  return { uid: auth.uid, admin, name: personName(auth.uid, user, verified, admin), user };
}

/** The callable error code of each refusal of the service (the console's wire codes). */
const CALLABLE_CODE: Record<KeyAdminError["code"], FunctionsErrorCode> = {
  forbidden: "permission-denied",
  invalid_input: "invalid-argument",
  not_found: "not-found",
  limit_reached: "resource-exhausted",
  too_soon: "resource-exhausted",
  plan_required: "failed-precondition",
};

export function callableHandler<S extends z.ZodType, R>(
  name: string,
  schema: S,
  run: (input: z.output<S>, caller: Caller) => Promise<R>,
) {
  return async (request: CallableRequest<unknown>): Promise<R> => {
    // Answers may carry a new key (shown once) or the key list: never cached by anyone.
    request.rawRequest?.res?.set("Cache-Control", "no-store");
    try {
      const caller = await callerOf(request);
      const parsed = schema.safeParse(request.data ?? {});
      if (!parsed.success) {
        const message = parsed.error.issues
          .map((i) =>
            i.code === "unrecognized_keys" ? `unknown field(s) ${i.keys.join(", ")}` : i.message,
          )
          .join("; ");
        throw new HttpsError("invalid-argument", message);
      }
      return await run(parsed.data, caller);
    } catch (err) {
      if (err instanceof HttpsError) throw err;
      if (err instanceof KeyAdminError) throw new HttpsError(CALLABLE_CODE[err.code], err.message);
      callableFailed(name, err);
      throw new HttpsError("internal", "An internal error occurred.");
    }
  };
}
