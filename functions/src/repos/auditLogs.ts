import { FieldValue, Timestamp, type Transaction, type WriteBatch } from "firebase-admin/firestore";
import { AUDIT_RETENTION_DAYS } from "../config/constants";
import { firestore } from "../config/firebase";
import type { KeyApi } from "../lib/apiKeyFormat";
import { DAY_MS } from "../lib/dates";

export type AuditClass = keyof typeof AUDIT_RETENTION_DAYS;

/** One entry of `companies/{companyId}/auditLogs`, exactly the contract's fields. */
export interface AuditEntry {
  at: Timestamp;
  class: AuditClass;
  action: string;
  actor: { type: "api_key" | "user" | "system"; id: string; name: string };
  api: KeyApi | null;
  method: string | null;
  path: string | null;
  status: number | null;
  requestId: string | null;
  /**
   * The caller's own `X-Request-Id` (absent when none was sent, and on entries of older versions).
   */
  clientRequestId?: string | null;
  projectId: string | null;
  /** What a change concerns (absent on plain requests). */
  target?: AuditTarget;
  /** A group change (`group.*`): the ids of the members it adds and removes. */
  members?: { added: string[]; removed: string[] };
  /** Refused requests (`api.refused`): how many one entry stands for. Absent: one. */
  count?: number;
  /** `api_access.changed`: the API's state after the switch. */
  enabled?: boolean;
  /** `api_key.rolled`: when the old key stops working, and the prefix of the key replacing it. */
  expiresAt?: Timestamp;
  successor?: string;
  expireAt: Timestamp;
}

export type AuditActor = AuditEntry["actor"];

/** Who made a change and through which request: the request's part of every entry. */
export type AuditOrigin = Omit<
  AuditEntry,
  "at" | "expireAt" | "class" | "action" | "target" | "count" | "members"
>;

export interface AuditTarget {
  type: "api_key" | "user" | "worked_hours" | "company" | "esrs_report" | "group";
  id: string;
}

/** Completes an entry with its timestamp and the TTL deadline of its class. */
export function auditEntry(
  fields: Omit<AuditEntry, "at" | "expireAt">,
  at = Timestamp.now(),
): AuditEntry {
  const expireAt = Timestamp.fromMillis(
    at.toMillis() + AUDIT_RETENTION_DAYS[fields.class] * DAY_MS,
  );
  return { ...fields, at, expireAt };
}

/** `companies/{companyId}/auditLogs/{entryId}`: API-owned, append-only. */
export const auditLogsCollection = (companyId: string) =>
  firestore().collection("companies").doc(companyId).collection("auditLogs");

const entryRef = (companyId: string, id: string | undefined) =>
  id ? auditLogsCollection(companyId).doc(id) : auditLogsCollection(companyId).doc();

/**
 * Adds an entry under `id` (a request's entry: its request id, so a request can never leave
 * two entries, even when a commit's outcome was unknown and the request then failed), or under
 * a generated id.
 */
export async function appendAuditEntry(
  companyId: string,
  entry: AuditEntry,
  id?: string,
): Promise<void> {
  await entryRef(companyId, id).create(entry);
}

/** The same entry as one write of a caller's batch (committed with the change it records). */
export function stageAuditEntry(
  batch: WriteBatch,
  companyId: string,
  entry: AuditEntry,
  id?: string,
): void {
  batch.create(entryRef(companyId, id), entry);
}

/** A privileged change made outside any request (the console, an operator, a trigger). */
export interface ChangeEntry extends Pick<AuditEntry, "enabled" | "expiresAt" | "successor"> {
  action: string;
  target: AuditTarget;
  api?: KeyApi | null;
  projectId?: string | null;
}

/** Stages the audit entry of such a change in the transaction that makes it (`at`: its time). */
export function stageChangeEntry(
  tx: Transaction,
  companyId: string,
  actor: AuditActor,
  change: ChangeEntry,
  at?: Timestamp,
): void {
  const entry = auditEntry(
    {
      class: "privileged",
      actor,
      api: null,
      projectId: null,
      method: null,
      path: null,
      status: null,
      requestId: null,
      ...change,
    },
    at,
  );
  tx.create(auditLogsCollection(companyId).doc(), entry);
}

/** Writes the outcome into a request's entry, created when the request was counted. */
export async function settleRequestEntry(
  companyId: string,
  id: string,
  status: number,
): Promise<void> {
  await auditLogsCollection(companyId).doc(id).update({ status });
}

/**
 * Adds `count` refused requests to the entry `id` (one per key, minute and status), creating it
 * on the first: the entry's other fields are those of the latest request counted.
 */
export async function addRefusals(
  companyId: string,
  id: string,
  entry: AuditEntry,
  count: number,
): Promise<void> {
  await auditLogsCollection(companyId)
    .doc(id)
    .set({ ...entry, count: FieldValue.increment(count) }, { merge: true });
}

/**
 * Refused changes of protected users a key leaves as entries of their own per UTC minute; the rest
 * are only counted.
 */
export const REFUSED_CHANGES_PER_MINUTE = 10;

/**
 * Settles a request refused a change of a protected user, in one transaction: its `api.request`
 * status, the refusal's own entry (the first REFUSED_CHANGES_PER_MINUTE of the key's minute), and
 * the minute's count `counterId`, an entry standing for every refusal of that minute.
 */
export async function settleRefusedChange(
  companyId: string,
  requestId: string,
  entry: AuditEntry,
  counter: { id: string; at: Timestamp },
): Promise<void> {
  const logs = auditLogsCollection(companyId);
  await firestore().runTransaction(async (tx) => {
    const counted = await tx.get(logs.doc(counter.id));
    const count = Number(counted.get("count")) || 0;
    tx.update(logs.doc(requestId), { status: entry.status });
    if (count < REFUSED_CHANGES_PER_MINUTE) tx.create(logs.doc(`${requestId}_refused`), entry);
    tx.set(logs.doc(counter.id), {
      ...auditEntry({ ...entry, action: "user.changes_refused" }, counter.at),
      count: count + 1,
    });
  });
}
