import { beforeUserSignedIn, HttpsError } from "firebase-functions/v2/identity";
import { shared } from "../config/runtime";
import { loadOrExit } from "../lib/lazy";

/**
 * Sign-in follows the roster: a deactivated or removed person cannot sign in (even if Firebase
 * Auth still lets them), and an invited person becomes active at their first sign-in.
 */
export const rosterSignIn = beforeUserSignedIn(
  // One roster transaction a sign-in: 80 at once measured well inside the default 256 MiB.
  { ...shared, concurrency: 80 },
  async (event) => {
    const { recordSignIn } = await loadOrExit(() => import("../services/users/commit"));
    if ((await recordSignIn(event.data?.uid ?? "")) === "refused") {
      throw new HttpsError(
        "permission-denied",
        "This account has been deactivated; ask your company's administrator.",
      );
    }
  },
);
