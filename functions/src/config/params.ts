import { defineSecret, defineString } from "firebase-functions/params";

/**
 * Deploy-time configuration. Non-secret params take their values from `functions/.env`
 * (committed, reviewed like code); secrets from Secret Manager (`firebase functions:secrets:set`).
 */
export const PAGE_TOKEN_SECRET = defineSecret("PAGE_TOKEN_SECRET");

export const STORAGE_BUCKETS = defineString("STORAGE_BUCKETS", {
  description: "Comma-separated Cloud Storage buckets the deployment owns besides the project's default bucket.",
  default: "",
});

/** Used only when no secret is configured and the process talks to emulators. */
const DEV_PAGE_TOKEN_SECRET = "dev-only-page-token-secret--emulator-use-only";

export const onEmulator = () => process.env.FUNCTIONS_EMULATOR === "true" || Boolean(process.env.FIRESTORE_EMULATOR_HOST);

/** The HMAC key of page tokens. Fails closed in production when the secret is missing. */
export function pageTokenSecret(): string {
  const value = process.env.PAGE_TOKEN_SECRET ? PAGE_TOKEN_SECRET.value() : "";
  if (value) return value;
  if (onEmulator()) return DEV_PAGE_TOKEN_SECRET;
  throw new Error("PAGE_TOKEN_SECRET is not configured");
}

export function projectId(): string {
  const fromConfig = process.env.FIREBASE_CONFIG ? (JSON.parse(process.env.FIREBASE_CONFIG) as { projectId?: string }).projectId : undefined;
  return fromConfig ?? process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-safety-apis";
}

/**
 * The deployment's own buckets: the project's default bucket (FIREBASE_CONFIG), both default
 * bucket names Firebase has used for a project, and STORAGE_BUCKETS.
 */
export function storageBuckets(): { defaultBucket: string; own: Set<string> } {
  const config = process.env.FIREBASE_CONFIG ? (JSON.parse(process.env.FIREBASE_CONFIG) as { storageBucket?: string }) : {};
  const project = projectId();
  const defaultBucket = config.storageBucket || `${project}.firebasestorage.app`;
  const extra = (process.env.STORAGE_BUCKETS ?? "").split(",").map((b) => b.trim()).filter(Boolean);
  return { defaultBucket, own: new Set([defaultBucket, `${project}.appspot.com`, `${project}.firebasestorage.app`, ...extra]) };
}
