import * as logger from "firebase-functions/logger";

/**
 * One function per log event (structured logging), for every layer. Never pass keys, e-mail
 * addresses or other private fields: these lines go to Cloud Logging as they are. Every line
 * carries its event name as `event` (the log-based metrics of docs/operations.md filter on it);
 * any 64-hex run (a key hash, e.g. in an `apiKeys/<sha256>` path of a Firestore error) is
 * replaced wherever it appears; and a failure is logged with an Error built from the original
 * (its stack, so Error Reporting groups by where it failed, not by this file).
 */
const HASH = /[0-9a-f]{64}/gi;
const redact = (text: string) => text.replace(HASH, "<sha256>");

function redacted(value: unknown): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map(redacted);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v)]));
  return value;
}

/** The failure as an Error that says nothing private: message and stack redacted. */
function errorOf(err: unknown): Error {
  const source = err instanceof Error ? err : new Error(String(err));
  const copy = new Error(redact(source.message));
  copy.name = source.name;
  copy.stack = redact(source.stack ?? `${source.name}: ${source.message}`);
  return copy;
}

type Fields = Record<string, unknown>;
const write = (level: "info" | "warn" | "error", event: string, fields: Fields, err?: unknown) => {
  const data = redacted({ event, ...fields });
  if (err === undefined) logger[level](event, data);
  else logger[level](event, errorOf(err), data);
};

/**
 * Lines a request can cause, bounded per instance: at most LINES_PER_WINDOW lines per cause and
 * minute; the first line of a later window says how many were left out (`suppressed`). A flood
 * of refused requests (e.g. 429s from the failed-authentication guard) costs O(1) lines.
 */
export const LINES_PER_WINDOW = 10;
const WINDOW_MS = 60_000;
const MAX_CAUSES = 1000;
const budgets = new Map<string, { windowStart: number; lines: number; suppressed: number }>();

function bounded(cause: string, now = Date.now()): { suppressed?: number } | null {
  let budget = budgets.get(cause);
  if (!budget || now - budget.windowStart >= WINDOW_MS) {
    const suppressed = budget?.suppressed ?? 0;
    if (!budget && budgets.size >= MAX_CAUSES) budgets.delete(budgets.keys().next().value!);
    budget = { windowStart: now, lines: 0, suppressed: 0 };
    budgets.set(cause, budget);
    budget.lines++;
    return suppressed ? { suppressed } : {};
  }
  if (budget.lines >= LINES_PER_WINDOW) {
    budget.suppressed++;
    return null;
  }
  budget.lines++;
  return {};
}

export function unattributedRequest(fields: {
  api: string;
  requestId: string;
  method: string;
  path: string;
  status: number;
  reason: string;
}): void {
  // A reason's numbers (e.g. "retry after 42 s") do not make it another cause.
  const cause = `${fields.api} ${fields.status} ${fields.reason.replace(/\d+/g, "#")}`;
  const extra = bounded(`unattributed ${cause}`);
  if (extra) write("warn", "api.unattributed_request", { ...fields, ...extra });
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
  const name = err instanceof Error ? err.name : typeof err;
  const extra = bounded(`failed\u0000${fields.api}\u0000${name}`);
  if (extra) write("error", "api.request_failed", { ...fields, ...extra }, err);
}

export function auditWriteFailed(
  fields: { api: string; requestId: string; method: string; path: string; companyId: string },
  err: unknown,
): void {
  const extra = bounded(`audit\u0000${fields.api}`);
  if (extra) write("error", "api.audit_write_failed", { ...fields, ...extra }, err);
}

export function callableFailed(callable: string, err: unknown): void {
  const extra = bounded(`callable\u0000${callable}`);
  if (extra) write("error", "console.callable_failed", { callable, ...extra }, err);
}

/**
 * A stored field that does not fit the data contract was read as absent (or its fallback).
 * Names the document and the field only: the value may be private.
 */
export function storedFieldInvalid(fields: { document: string; field: string }): void {
  write("warn", "stored.invalid_field", fields);
}

/** A stored document the API cannot use at all (a required field is missing or wrong). */
export function storedDocumentUnusable(fields: { document: string; field: string }): void {
  write("error", "stored.unusable_document", fields);
}

/** Signing an attachment link failed (e.g. a missing IAM role). Never the URL. */
export function signingFailed(fields: { bucket: string; error: string }): void {
  write("error", "signing.failed", fields);
}

/**
 * An attachment of the project references an object outside the project's folder (another
 * vessel's or company's file, or a misfiled one): not signed. Once per project and instance;
 * never the path.
 */
export function storageRefOutsideProject(fields: { projectId: string }): void {
  write("warn", "signing.outside_project", fields);
}

/** The KPI rollup of one company could not be computed or stored. */
export function rollupFailed(companyId: string, err: unknown): void {
  write("error", "kpi_rollup.failed", { companyId }, err);
}

/** A field had more distinct values than a report lists: the counts per value are cut short. */
export function distinctValuesCapped(fields: {
  companyId: string;
  collection: string;
  field: string;
  max: number;
}): void {
  write("warn", "kpi_rollup.distinct_values_capped", fields);
}

/**
 * Firebase Auth could not follow a roster change (e.g. disabling sign-in). The roster is
 * right; the sign-in blocking function refuses deactivated users meanwhile.
 */
export function accountSyncFailed(fields: { uid: string; step: string }, err: unknown): void {
  write("error", "provisioning.account_sync_failed", fields, err);
}

/** What a trigger or scheduled job did, once per run (`kpi_rollup.daily`, `role.rematch`…). */
export function jobFinished(event: string, fields: Fields): void {
  write("info", event, fields);
}
