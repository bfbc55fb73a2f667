import type { Timestamp } from "firebase-admin/firestore";
import { AUDIT_RETENTION_DAYS } from "../config/constants";
import { DAY_MS, type Instant } from "../lib/dates";
import { auditLogsCollection, type AuditClass } from "./auditLogs";
import { rangeQuery, streamRows, type Cursor } from "./rangeQuery";
import {
  nullableFlag,
  nullableNumber,
  nullableString,
  parseSnapshot,
  storedMap,
  text,
  timestamp,
  type Stored,
} from "./stored";

/** Reading the audit log: an entry as stored, and the listing's page of entries. */
const auditShape = {
  at: timestamp,
  class: nullableString,
  action: text,
  actor: storedMap({ type: nullableString, id: nullableString, name: nullableString }),
  api: nullableString,
  method: nullableString,
  path: nullableString,
  status: nullableNumber,
  requestId: nullableString,
  clientRequestId: nullableString,
  projectId: nullableString,
  count: nullableNumber,
  enabled: nullableFlag,
  expiresAt: timestamp,
  successor: nullableString,
  target: storedMap({ type: nullableString, id: nullableString }),
  expireAt: timestamp,
};
export type AuditDoc = Stored<typeof auditShape> & { id: string };

const instantOf = (ms: number): Instant => ({
  seconds: Math.floor(ms / 1000),
  nanos: (ms % 1000) * 1e6,
});
const later = (a: Instant | undefined, b: Instant): Instant =>
  a && (a.seconds > b.seconds || (a.seconds === b.seconds && a.nanos > b.nanos)) ? a : b;
const newestFirst = (
  a: { at: Timestamp | null; id: string },
  b: { at: Timestamp | null; id: string },
) =>
  (b.at?.toMillis() ?? 0) - (a.at?.toMillis() ?? 0) ||
  (b.at?.nanoseconds ?? 0) - (a.at?.nanoseconds ?? 0) ||
  (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export interface AuditQuery {
  class?: AuditClass;
  from?: Instant;
  to?: Instant;
  after?: Cursor;
  limit: number;
  now: Date;
}

/**
 * Entries newest first (then by id, descending), inside their retention even before the TTL
 * policy deletes them: one query per class, bounded to `at` within that class's retention
 * (`expireAt` is `at` plus it), merged. Each query reads at most `limit` entries, so a page
 * never wades through expired ones; `expireAt` is checked again on every row.
 */
export async function queryAuditLogs(
  companyId: string,
  q: AuditQuery,
): Promise<Array<{ row: AuditDoc | null; cursor: Cursor }>> {
  const classes = q.class ? [q.class] : (Object.keys(AUDIT_RETENTION_DAYS) as AuditClass[]);
  const perClass = await Promise.all(
    classes.map(async (cls) => {
      const retained = instantOf(q.now.getTime() - AUDIT_RETENTION_DAYS[cls] * DAY_MS);
      const query = await rangeQuery(auditLogsCollection(companyId), "at", {
        equality: { field: "class", value: cls },
        from: later(q.from, retained),
        to: q.to,
        after: q.after,
        limit: q.limit,
        direction: "desc",
      });
      return streamRows(query, "at", (doc) => parseSnapshot(auditShape, doc));
    }),
  );
  return perClass
    .flat()
    .sort((a, b) => newestFirst(a.row, b.row))
    .slice(0, q.limit)
    .map(({ row, cursor }) => ({
      row: row.expireAt && row.expireAt.toMillis() > q.now.getTime() ? row : null,
      cursor,
    }));
}
