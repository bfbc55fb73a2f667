import { Timestamp } from "firebase-admin/firestore";
import { AUDIT_RETENTION_DAYS } from "../config/constants";

export type AuditClass = keyof typeof AUDIT_RETENTION_DAYS;

/** One entry of `companies/{companyId}/auditLogs`, exactly the contract's fields. */
export interface AuditEntry {
  at: Timestamp;
  class: AuditClass;
  action: string;
  actor: { type: "api_key" | "user" | "system"; id: string; name: string };
  api: "findings" | "company" | null;
  method: string | null;
  path: string | null;
  status: number | null;
  requestId: string | null;
  projectId: string | null;
  /** What a change concerns (absent on plain requests). */
  target?: AuditTarget;
  expireAt: Timestamp;
}

export interface AuditTarget {
  type: "api_key" | "user" | "worked_hours" | "company";
  id: string;
}

const DAY_MS = 86_400_000;

/** Completes an entry with its timestamp and the TTL deadline of its class. */
export function auditEntry(fields: Omit<AuditEntry, "at" | "expireAt">, at = Timestamp.now()): AuditEntry {
  const expireAt = Timestamp.fromMillis(at.toMillis() + AUDIT_RETENTION_DAYS[fields.class] * DAY_MS);
  return { ...fields, at, expireAt };
}
