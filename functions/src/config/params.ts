import { defineInt, defineSecret, defineString } from "firebase-functions/params";

/**
 * Deploy-time configuration. Non-secret params take their values from `functions/.env`
 * (committed, reviewed like code); secrets from Secret Manager (`firebase functions:secrets:set`).
 */
export const PAGE_TOKEN_SECRET = defineSecret("PAGE_TOKEN_SECRET");

/**
 * Declared for the Firebase CLI, which reads params when it loads the code to deploy; the code
 * reads the value through storageBuckets().
 * @public
 */
export const STORAGE_BUCKETS = defineString("STORAGE_BUCKETS", {
  description:
    "Comma-separated Cloud Storage buckets the deployment owns besides the project's " +
    "default bucket.",
  default: "",
});

/**
 * How many `X-Forwarded-For` entries from the end belong to Google's front end: 1 when clients
 * call the function directly (the default), 2 behind an external HTTPS load balancer, which
 * appends `<client>, <balancer>` (docs/operations.md, "Configuration"). Declared for the
 * Firebase CLI; the code reads it through forwardedHops().
 * @public
 */
export const FORWARDED_HOPS = defineInt("FORWARDED_HOPS", {
  default: 1,
  description:
    "X-Forwarded-For entries appended by Google's front end: 1 direct, 2 behind an HTTPS " +
    "load balancer.",
});

export function forwardedHops(): number {
  const hops = Number(process.env.FORWARDED_HOPS ?? 1);
  return Number.isInteger(hops) && hops >= 1 ? hops : 1;
}

/** Used only when no secret is configured and the process talks to emulators. */
const DEV_PAGE_TOKEN_SECRET = "dev-only-page-token-secret--emulator-use-only";

export const onEmulator = () =>
  process.env.FUNCTIONS_EMULATOR === "true" || Boolean(process.env.FIRESTORE_EMULATOR_HOST);

/** Shortest secret accepted: 32 characters (e.g. `openssl rand -base64 32` gives 44). */
const MIN_SECRET_LENGTH = 32;

/**
 * The HMAC keys of page tokens: PAGE_TOKEN_SECRET holds one secret, or during a rotation
 * several separated by spaces (the new one first: it signs; every one verifies). Fails closed
 * in production when none is configured or one is too short.
 */
export function pageTokenSecrets(): string[] {
  const secrets = (process.env.PAGE_TOKEN_SECRET ? PAGE_TOKEN_SECRET.value() : "")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!secrets.length && onEmulator()) return [DEV_PAGE_TOKEN_SECRET];
  if (!secrets.length) throw new Error("PAGE_TOKEN_SECRET is not configured");
  if (secrets.some((s) => s.length < MIN_SECRET_LENGTH))
    throw new Error(
      `PAGE_TOKEN_SECRET: every secret needs at least ${MIN_SECRET_LENGTH} characters`,
    );
  return secrets;
}

export function projectId(): string {
  const fromConfig = process.env.FIREBASE_CONFIG
    ? (JSON.parse(process.env.FIREBASE_CONFIG) as { projectId?: string }).projectId
    : undefined;
  return (
    fromConfig ??
    process.env.GCLOUD_PROJECT ??
    process.env.GOOGLE_CLOUD_PROJECT ??
    "demo-safety-apis"
  );
}

/**
 * The deployment's own buckets: the project's default bucket (FIREBASE_CONFIG), both default
 * bucket names Firebase has used for a project, and STORAGE_BUCKETS.
 */
export function storageBuckets(): { defaultBucket: string; own: Set<string> } {
  const config = process.env.FIREBASE_CONFIG
    ? (JSON.parse(process.env.FIREBASE_CONFIG) as { storageBucket?: string })
    : {};
  const project = projectId();
  const defaultBucket = config.storageBucket || `${project}.firebasestorage.app`;
  const extra = (process.env.STORAGE_BUCKETS ?? "")
    .split(",")
    .map((b) => b.trim())
    .filter(Boolean);
  return {
    defaultBucket,
    own: new Set([
      defaultBucket,
      `${project}.appspot.com`,
      `${project}.firebasestorage.app`,
      ...extra,
    ]),
  };
}
