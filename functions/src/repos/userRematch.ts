import { Timestamp, type Transaction } from "firebase-admin/firestore";
import { auditEntry, auditLogsCollection, type AuditOrigin } from "./auditLogs";
import { runContended } from "./transactions";
import type { UserUpdate } from "./userTransaction";
import { liveUsers, parseUser, usersCollection, type StoredUser } from "./users";

/** Users re-matched per transaction (each also writes its audit entry). */
const CHUNK = 200;

/** Who made the change, as the audit trail names it (actor type `system`). */
export interface SystemActor {
  id: string;
  name: string;
}

/** The fields a re-match may set on a user. */
export type RematchUpdate = Pick<
  UserUpdate,
  "departmentId" | "unmatchedDepartment" | "role" | "idpRoleMappedTo" | "groupRole"
>;

/** The audit origin of a change no request made (a trigger, a job). */
export const systemOrigin = (actor: SystemActor): AuditOrigin => ({
  actor: { type: "system", ...actor },
  api: null,
  method: null,
  path: null,
  status: null,
  requestId: null,
  projectId: null,
});

/**
 * Re-reads the users `ids` of the company, in transactions of 200 with what `readContext` reads
 * in the same transaction (null: stop, nothing to apply), and applies the update `decide` answers
 * for each (null: leave the user alone), with its `user.updated` audit entry (actor `system`).
 * The re-read makes a change made in the meantime win, and a repeated call a no-op. Removed
 * users and other companies' users are never changed. Answers how many users changed.
 */
export function rematchUsers<C>(
  companyId: string,
  ids: readonly string[],
  actor: SystemActor,
  readContext: (t: Transaction) => Promise<C | null>,
  decide: (context: C, user: StoredUser) => RematchUpdate | null,
): Promise<number> {
  return settleUsers(companyId, ids, systemOrigin(actor), readContext, decide);
}

/**
 * `rematchUsers` on behalf of `origin` (a request's key, or the system), which also clears each
 * user's `groupRoleDueAt` (the pending group re-match, repos/scimGroups.ts) in the transaction
 * that applies what the user's groups give.
 */
export async function settleUsers<C>(
  companyId: string,
  ids: readonly string[],
  origin: AuditOrigin,
  readContext: (t: Transaction) => Promise<C | null>,
  decide: (context: C, user: StoredUser) => RematchUpdate | null,
): Promise<number> {
  let changed = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const refs = ids.slice(i, i + CHUNK).map((id) => usersCollection().doc(id));
    changed += await runContended(async (t) => {
      const [context, snaps] = await Promise.all([readContext(t), t.getAll(...refs)]);
      if (context === null) return 0;
      const now = Timestamp.now();
      let count = 0;
      for (const user of snaps.filter((s) => s.exists).map(parseUser)) {
        const mine = user.companyId === companyId && !user.removedAt;
        const update = mine ? decide(context, user) : null;
        const due = user.groupRoleDueAt ? { groupRoleDueAt: null } : {};
        if (update) {
          t.update(usersCollection().doc(user.id), { ...update, ...due, updatedAt: now });
          t.create(
            auditLogsCollection(companyId).doc(),
            auditEntry(
              {
                ...origin,
                class: "privileged",
                action: "user.updated",
                target: { type: "user", id: user.id },
              },
              now,
            ),
          );
          count++;
        } else if (user.groupRoleDueAt) t.update(usersCollection().doc(user.id), due);
      }
      return count;
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
