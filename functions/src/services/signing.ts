import type { Storage } from "@google-cloud/storage";
import { generateKeyPairSync } from "node:crypto";
import { onEmulator, projectId } from "../config/params";
import { firstTimeFilter } from "../lib/bounded";
import { lazyOnce } from "../lib/lazy";
import { signingFailed } from "../logs";

/**
 * V4 signed read URLs for attachments (valid 15 minutes).
 *
 * - Production: the function's service account signs through IAM `signBlob`, which needs
 *   `roles/iam.serviceAccountTokenCreator` on that service account (see docs/operations.md).
 * - A key file named by `GOOGLE_APPLICATION_CREDENTIALS` signs locally, anywhere (the tests'
 *   throwaway service account, whose public key verifies the links).
 * - Emulators without signing credentials: an ephemeral RSA key generated in memory, so every
 *   emulator start returns real V4 links without a key on disk.
 */
export const LINK_LIFETIME_SECONDS = 15 * 60;

interface SigningCredentials {
  client_email: string;
  private_key: string;
}

function ephemeralCredentials(): SigningCredentials {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    client_email: `emulator-signer@${projectId()}.iam.gserviceaccount.com`,
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/**
 * The client, loaded at the first link signed: @google-cloud/storage is large and most requests
 * sign nothing. A failed load or construction is retried by the next link, not kept. `require`,
 * not `import()`: the package's CommonJS build, the one the tests and the deploy package check
 * load (an `import()` in the ES-module bundle would take its ES-module build), and a CommonJS
 * module that failed to load is loaded again by the next `require`.
 */
const client = lazyOnce(async (): Promise<Storage> => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Storage } = require("@google-cloud/storage") as typeof import("@google-cloud/storage");
  const hasCredentials = Boolean(process.env.GOOGLE_APPLICATION_CREDENTIALS);
  return onEmulator() && !hasCredentials
    ? new Storage({ projectId: projectId(), credentials: ephemeralCredentials() })
    : new Storage();
});

/**
 * Signs from one clock reading: `accessibleAt` (X-Goog-Date, whole seconds) and `expires` are
 * both derived from it, so X-Goog-Expires is exactly 900 and `expiresAt` is the real expiry.
 */
export async function signReadUrl(
  bucket: string,
  path: string,
  now = Date.now(),
): Promise<{ url: string; expiresAt: Date }> {
  const signedAt = Math.floor(now / 1000) * 1000;
  const expiresAt = new Date(signedAt + LINK_LIFETIME_SECONDS * 1000);
  const [url] = await (
    await client()
  )
    .bucket(bucket)
    .file(path)
    .getSignedUrl({
      version: "v4",
      action: "read",
      accessibleAt: new Date(signedAt),
      expires: expiresAt,
    });
  return { url, expiresAt };
}

/** Causes already logged by this instance: one line per bucket and error, not one per row. */
const firstFailure = firstTimeFilter(1000);

/**
 * Logs a signing failure once per cause, so a missing IAM role (signBlob denied) shows up in
 * the logs rather than only as `signing_failed` rows. Never the URL or the object path.
 */
export function noteSigningFailure(bucket: string, err: unknown): void {
  const error = err instanceof Error ? err.message : String(err);
  if (firstFailure(`${bucket}\u0000${error}`)) signingFailed({ bucket, error });
}
