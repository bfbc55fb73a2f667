import { Timestamp, type Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { stageChangeEntry } from "./auditLogs";
import { liveUsers, parseUser, usersCollection, type StoredUser } from "./users";

/** Users re-matched per transaction (each also writes its audit entry). */
const CHUNK = 200;

/** Who made the change, as the audit trail names it (actor type `system`). */
export interface SystemActor {
  id: string;
  name: string;
}

/** The fields a re-match may set on a user. */
export type RematchUpdate =
  | { departmentId: string; unmatchedDepartment: null }
  | {
      role: string;
      idpRoleMappedTo: string;
    };

/**
 * Re-reads the users `ids` of the company, in transactions of 200 with what `readContext` reads
 * in the same transaction (null: stop, nothing to apply), and applies the update `decide` answers
 * for each (null: leave the user alone), with its `user.updated` audit entry (actor `system`).
 * The re-read makes a change made in the meantime win, and a repeated call a no-op. Removed
 * users and other companies' users are never changed. Answers how many users changed.
 */
export async function rematchUsers<C>(
  companyId: string,
  ids: readonly string[],
  actor: SystemActor,
  readContext: (t: Transaction) => Promise<C | null>,
  decide: (context: C, user: StoredUser) => RematchUpdate | null,
): Promise<number> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const refs = ids.slice(i, i + CHUNK).map((id) => usersCollection().doc(id));
    changed += await firestore().runTransaction(async (t) => {
      const [context, snaps] = await Promise.all([readContext(t), t.getAll(...refs)]);
      if (context === null) return 0;
      const due = snaps
        .filter((s) => s.exists)
        .map(parseUser)
        .filter((user) => user.companyId === companyId && !user.removedAt)
        .map((user) => ({ user, update: decide(context, user) }))
        .filter((d) => d.update !== null);
      for (const { user, update } of due) {
        t.update(usersCollection().doc(user.id), { ...update, updatedAt: Timestamp.now() });
        stageChangeEntry(
          t,
          companyId,
          { type: "system", ...actor },
          { action: "user.updated", target: { type: "user", id: user.id } },
        );
      }
      return due.length;
    });
  }
  return changed;
}

/** The company's users holding a role value an identity provider sent (`idpRole` set). */
export async function rosterWithIdpRole(companyId: string): Promise<StoredUser[]> {
  const snap = await usersCollection()
    .where("companyId", "==", companyId)
    .where("idpRole", "!=", null)
    .get();
  return liveUsers(companyId, snap.docs);
}

/** The company's users holding a department name no department had (`unmatchedDepartment` set). */
export async function rosterWithUnmatchedDepartment(companyId: string): Promise<StoredUser[]> {
  const snap = await usersCollection()
    .where("companyId", "==", companyId)
    .where("unmatchedDepartment", "!=", null)
    .get();
  return liveUsers(companyId, snap.docs);
}
