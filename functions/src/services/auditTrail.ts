import type { AuditClass } from "../repos/auditLogs";
import { queryAuditLogs, type AuditDoc } from "../repos/auditReads";
import type { Cursor } from "../repos/rangeQuery";
import { KeyAdminError, type Caller } from "./adminAccess";

/**
 * Who may read a company's audit trail, as firestore.rules' `auditorOf`: an Admin, or a member
 * of the company who may still use the app and is its owner or holds the Key User role.
 */
export function assertMayReadAudit(caller: Caller, companyId: string): void {
  if (caller.admin) return;
  const user = caller.user;
  const live = user?.status === "active" || user?.status === "invited";
  if (user?.companyId !== companyId || !live || (user.role !== "owner" && !user.keyUser))
    throw new KeyAdminError(
      "forbidden",
      "You are not allowed to read the audit trail of this company.",
    );
}

export interface AuditPage {
  entries: AuditDoc[];
  /** Where the next page starts; null on the last page. */
  next: Cursor | null;
}

/** One page of the company's trail, newest first, of one class or both. */
export async function auditTrailPage(
  companyId: string,
  q: { class?: AuditClass; after?: Cursor; limit: number },
  caller: Caller,
  now = new Date(),
): Promise<AuditPage> {
  assertMayReadAudit(caller, companyId);
  const rows = await queryAuditLogs(companyId, { ...q, now });
  const next = rows.length === q.limit ? rows[rows.length - 1].cursor : null;
  return { entries: rows.flatMap(({ row }) => (row ? [row] : [])), next };
}
