import { rematchUsers, rosterWithUnmatchedDepartment } from "../repos/userRematch";

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
  return rematchUsers(
    companyId,
    ids,
    { id: "department-rematch", name: "Department re-match" },
    async () => department.id,
    (departmentId, user) =>
      key(user.unmatchedDepartment) === wanted ? { departmentId, unmatchedDepartment: null } : null,
  );
}

/**
 * The name to re-match after a write of a department document: its new name when it appeared or
 * changed, else null.
 */
export function nameToRematch(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): string | null {
  const name = typeof after?.name === "string" ? after.name : null;
  if (!key(name)) return null;
  const previous = typeof before?.name === "string" ? before.name : null;
  return key(previous) === key(name) ? null : name;
}
