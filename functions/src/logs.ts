import { logger } from "firebase-functions";

/**
 * One function per log event (structured logging), for every layer. Never pass keys, e-mail
 * addresses or other private fields: these lines go to Cloud Logging as they are.
 */
export function unattributedRequest(fields: {
  api: string;
  requestId: string;
  method: string;
  path: string;
  status: number;
  reason: string;
}): void {
  logger.warn("api.unattributed_request", fields);
}

export function requestFailed(
  fields: {
    api: string;
    requestId: string;
    clientRequestId?: string | null;
    method: string;
    path: string;
  },
  err: unknown,
): void {
  logger.error("api.request_failed", {
    ...fields,
    error:
      err instanceof Error
        ? { name: err.name, message: err.message, stack: err.stack }
        : String(err),
  });
}

export function auditWriteFailed(
  fields: { api: string; requestId: string; method: string; path: string; companyId: string },
  err: unknown,
): void {
  logger.error("api.audit_write_failed", {
    ...fields,
    error: err instanceof Error ? err.message : String(err),
  });
}

export function callableFailed(callable: string, err: unknown): void {
  logger.error("console.callable_failed", {
    callable,
    error: err instanceof Error ? err.message : String(err),
  });
}

/**
 * A stored field that does not fit the data contract was read as absent (or its fallback).
 * Names the document and the field only: the value may be private.
 */
export function storedFieldInvalid(fields: { document: string; field: string }): void {
  logger.warn("stored.invalid_field", fields);
}

/** A stored document the API cannot use at all (a required field is missing or wrong). */
export function storedDocumentUnusable(fields: { document: string; field: string }): void {
  logger.error("stored.unusable_document", fields);
}

/** Signing an attachment link failed (e.g. a missing IAM role). Never the URL. */
export function signingFailed(fields: { bucket: string; error: string }): void {
  logger.error("signing.failed", fields);
}

/**
 * An attachment of the project references an object outside the project's folder (another
 * vessel's or company's file, or a misfiled one): not signed. Once per project and instance;
 * never the path.
 */
export function storageRefOutsideProject(fields: { projectId: string }): void {
  logger.warn("signing.outside_project", fields);
}

/** The KPI rollup of one company could not be computed or stored. */
export function rollupFailed(companyId: string, err: unknown): void {
  logger.error("kpi_rollup.failed", {
    companyId,
    error: err instanceof Error ? err.message : String(err),
  });
}

/** A field had more distinct values than a report lists: the counts per value are cut short. */
export function distinctValuesCapped(fields: {
  companyId: string;
  collection: string;
  field: string;
  max: number;
}): void {
  logger.warn("kpi_rollup.distinct_values_capped", fields);
}

/**
 * Firebase Auth could not follow a roster change (e.g. disabling sign-in). The roster is
 * right; the sign-in blocking function refuses deactivated users meanwhile.
 */
export function accountSyncFailed(fields: { uid: string; step: string }, err: unknown): void {
  logger.error("provisioning.account_sync_failed", {
    ...fields,
    error: err instanceof Error ? err.message : String(err),
  });
}
