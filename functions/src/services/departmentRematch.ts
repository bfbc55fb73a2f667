import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection } from "../repos/auditLogs";
import { parseUser, rosterWithUnmatchedDepartment, usersCollection } from "../repos/users";

/** Users re-matched per transaction (each also writes its audit entry). */
const CHUNK = 200;
const SYSTEM_ACTOR = {
  type: "system",
  id: "department-rematch",
  name: "Department re-match",
} as const;

const key = (name: string | null | undefined) => name?.trim().toLowerCase() ?? null;

/**
 * Gives a department to the users whose `unmatchedDepartment` names it (case-insensitively, after
 * trimming), when the department is created or renamed: the logic of the `departmentRematch`
 * trigger on `companies/{c}/departments/{d}`. Each user's change and its `user.updated` audit
 * entry commit in one transaction, which re-reads the user, so a change the provider made in the
 * meantime wins and a retried trigger finds nothing left to do. Answers how many users changed.
 */
export async function rematchDepartment(
  companyId: string,
  department: { id: string; name: string },
): Promise<number> {
  const wanted = key(department.name);
  if (!wanted) return 0;
  const ids = (await rosterWithUnmatchedDepartment(companyId))
    .filter((u) => key(u.unmatchedDepartment) === wanted)
    .map((u) => u.id);
  let changed = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const refs = ids.slice(i, i + CHUNK).map((id) => usersCollection().doc(id));
    changed += await firestore().runTransaction(async (t) => {
      const snaps = await t.getAll(...refs);
      let n = 0;
      for (const snap of snaps) {
        if (!snap.exists) continue;
        const user = parseUser(snap);
        if (user.companyId !== companyId || user.removedAt) continue;
        if (key(user.unmatchedDepartment) !== wanted) continue;
        t.update(snap.ref, {
          departmentId: department.id,
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
        n += 1;
      }
      return n;
    });
  }
  return changed;
}

/** The name to re-match after a write of a department document: its new name when it appeared or changed, else null. */
export function nameToRematch(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): string | null {
  const name = typeof after?.name === "string" ? after.name : null;
  if (!key(name)) return null;
  const previous = typeof before?.name === "string" ? before.name : null;
  return key(previous) === key(name) ? null : name;
}
