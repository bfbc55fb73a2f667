import { firestore } from "../config/firebase";
import type { AuditEntry } from "../services/audit";

/** `companies/{companyId}/auditLogs/{entryId}`: API-owned, append-only. */
export const auditLogsCollection = (companyId: string) =>
  firestore().collection("companies").doc(companyId).collection("auditLogs");

export async function appendAuditEntry(companyId: string, entry: AuditEntry): Promise<void> {
  await auditLogsCollection(companyId).add(entry);
}
