import { logger } from "firebase-functions";

/**
 * One function per log event (structured logging). Never pass keys, e-mail addresses or
 * other private fields: these lines go to Cloud Logging as they are.
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

export function requestFailed(fields: { api: string; requestId: string; method: string; path: string }, err: unknown): void {
  logger.error("api.request_failed", {
    ...fields,
    error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
  });
}

export function auditWriteFailed(fields: { api: string; requestId: string; companyId: string }, err: unknown): void {
  logger.error("api.audit_write_failed", { ...fields, error: err instanceof Error ? err.message : String(err) });
}

export function callableFailed(callable: string, err: unknown): void {
  logger.error("console.callable_failed", { callable, error: err instanceof Error ? err.message : String(err) });
}
