import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection } from "./auditLogs";
import { companyOf, companyRef, type CompanyDoc } from "./companies";
import { parseUser, usersCollection, type StoredUser } from "./users";

/** Users given their role per transaction (each also writes its audit entry). */
const CHUNK = 200;
const SYSTEM_ACTOR = { type: "system", id: "role-rematch", name: "Role re-match" } as const;

/**
 * Sets the role `roleFor` answers (null: leave the user alone) for the users `ids` of the
 * company, as `role` and `idpRoleMappedTo`, each with its `user.updated` audit entry (actor
 * `system`), in transactions of 200 users. Each transaction reads the company with the users,
 * so the role map applied is the current one and a change made in the meantime wins; a repeated
 * call is a no-op. Answers how many users changed.
 */
export async function assignRoles(
  companyId: string,
  ids: readonly string[],
  roleFor: (company: CompanyDoc, user: StoredUser) => string | null,
): Promise<number> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const refs = ids.slice(i, i + CHUNK).map((id) => usersCollection().doc(id));
    changed += await firestore().runTransaction(async (t) => {
      const [companySnap, ...userSnaps] = await t.getAll(companyRef(companyId), ...refs);
      const company = companyOf(companySnap);
      if (!company) return 0;
      const due = userSnaps
        .filter((s) => s.exists)
        .map(parseUser)
        .filter((u) => u.companyId === companyId && !u.removedAt)
        .map((user) => ({ user, role: roleFor(company, user) }))
        .filter((d): d is { user: StoredUser; role: string } => d.role !== null);
      for (const { user, role } of due) {
        t.update(usersCollection().doc(user.id), {
          role,
          idpRoleMappedTo: role,
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
