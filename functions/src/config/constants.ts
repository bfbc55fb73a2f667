/** Deployment region of every function (EU customers; ESRS data stays in the EU). */
export const REGION = "europe-west1";

/** Default per-key limits of both API documents; overridable per company and per key. */
export const DEFAULT_RATE_LIMITS = { perMinute: 60, perDay: 10_000 } as const;

/** Audit retention of the contract (`expireAt` feeds the Firestore TTL policy). */
export const AUDIT_RETENTION_DAYS = { operational: 90, privileged: 730 } as const;

/** Largest request body either API accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Active (unrevoked) keys a company may hold per API. */
export const MAX_ACTIVE_KEYS = 20;
