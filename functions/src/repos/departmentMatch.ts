import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection } from "./auditLogs";
import { parseUser, usersCollection, type StoredUser } from "./users";

/** Users given their department per transaction (each also writes its audit entry). */
const CHUNK = 200;
const SYSTEM_ACTOR = {
  type: "system",
  id: "department-rematch",
  name: "Department re-match",
} as const;

/**
 * Gives `department` to the users `ids` of the company that `stillWanted` accepts when re-read,
 * each with its `user.updated` audit entry (actor `system`), in transactions of 200 users; the
 * re-read makes a change made in the meantime win and a repeated call a no-op. Answers how many
 * users changed.
 */
export async function assignDepartment(
  companyId: string,
  ids: readonly string[],
  departmentId: string,
  stillWanted: (user: StoredUser) => boolean,
): Promise<number> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const refs = ids.slice(i, i + CHUNK).map((id) => usersCollection().doc(id));
    changed += await firestore().runTransaction(async (t) => {
      const users = (await t.getAll(...refs)).filter((s) => s.exists).map(parseUser);
      const due = users.filter((u) => u.companyId === companyId && !u.removedAt && stillWanted(u));
      for (const user of due) {
        t.update(usersCollection().doc(user.id), {
          departmentId,
          unmatchedDepartment: null,
          updatedAt: Timestamp.now(),
        });
        t.create(
          auditLogsCollection(companyId).doc(),
          auditEntry({
            class: "privileged",
            action: "user.updated",
            actor: SYSTEM_ACTOR,
            api: null,
            method: null,
            path: null,
            status: null,
            requestId: null,
            projectId: null,
            target: { type: "user", id: user.id },
          }),
        );
      }
      return due.length;
    });
  }
  return changed;
}
