import { mapPool } from "../lib/pool";
import type { AuditOrigin } from "../repos/auditLogs";
import { groupsByIds, groupsCollection, membersOf } from "../repos/scimGroups";
import { findOnRoster } from "../repos/users";
import { commitChange } from "./users/commit";
import { planUpdate } from "./users/decisions";
import { chooseDepartment, groupAssignment, mapRole, provisioningSettings } from "./users/rules";

/**
 * The company's `provisioningGroupMap` applied to members whose groups changed
 * (docs/firestore-data.md): the highest mapped role wins over the `roles` value; leaving the last
 * role-mapped group returns the user to what `roles` gives; a mapped department is set, and kept
 * when the user leaves. Never an elevated role, never the owner's or a Key User's role
 * (planUpdate). Each user's change commits with its `user.updated` entry in one transaction.
 */
export async function applyGroupMap(
  companyId: string,
  uids: readonly string[],
  origin: AuditOrigin,
): Promise<void> {
  const settings = await provisioningSettings(companyId);
  if (!uids.length || !Object.keys(settings.groupMap).length) return;
  await mapPool([...new Set(uids)], 8, async (uid) => {
    const user = await findOnRoster(companyId, uid);
    if (!user) return;
    const groups = await groupsByIds(companyId, user.scimGroups);
    const given = groupAssignment(
      settings.groupMap,
      groups.map((g) => g.displayName),
    );
    const role = given.role
      ? { role: given.role, idpRole: user.idpRole }
      : user.groupRole
        ? { role: mapRole(settings.roleMap, user.idpRole), idpRole: user.idpRole }
        : undefined;
    const department = given.department
      ? await chooseDepartment(companyId, given.department, "record", {
          creating: false,
          source: settings.departmentSource,
        })
      : {};
    await commitChange(
      companyId,
      uid,
      (stored, now) => planUpdate(stored, { role, department, groupRole: given.role }, now),
      origin,
    );
  });
}

const REMATCH_ORIGIN: AuditOrigin = {
  actor: { type: "system", id: "group-rematch", name: "Group re-match" },
  api: null,
  method: null,
  path: null,
  status: null,
  requestId: null,
  projectId: null,
};

/**
 * After a change of the group map (the `roleRematch` trigger): every member of the company's
 * groups is looked at again, audited as `user.updated` by `system`. Answers how many members
 * were looked at (those whose role and department already agree are not written).
 */
export async function rematchGroupMembers(companyId: string): Promise<number> {
  const groups = await groupsCollection(companyId).select().get();
  const members = new Set<string>();
  for (const group of groups.docs)
    for (const member of await membersOf(companyId, group.id)) members.add(member.id);
  await applyGroupMap(companyId, [...members], REMATCH_ORIGIN);
  return members.size;
}
