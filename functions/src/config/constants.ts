/** Deployment region of every function (EU customers; ESRS data stays in the EU). */
export const REGION = "europe-west1";

/** Default per-key limits of both API documents; overridable per company and per key. */
export const DEFAULT_RATE_LIMITS = { perMinute: 60, perDay: 10_000 } as const;

/** Audit retention of the contract (`expireAt` feeds the Firestore TTL policy). */
export const AUDIT_RETENTION_DAYS = { operational: 90, privileged: 730 } as const;

/**
 * Change records (docs/firestore-data.md, "Change records"): a delta token is honoured this many
 * days; a removal record is kept a few days longer (its TTL) so every honoured token sees it.
 */
export const DELTA_RETENTION_DAYS = 30;
export const REMOVAL_RECORD_DAYS = 35;

/** Largest request body either API accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Active (unrevoked) keys a company may hold per API. */
export const MAX_ACTIVE_KEYS = 20;

/** How long an `Idempotency-Key`'s answer is kept and replayed (docs/firestore-data.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a first try holds its `Idempotency-Key`: longer than the API functions' timeout
 * (60 s), so a retry takes over only from a request that can no longer answer.
 */
export const IDEMPOTENCY_LOCK_MS = 70_000;
