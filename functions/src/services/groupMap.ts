import { Timestamp } from "firebase-admin/firestore";
import type { AuditOrigin } from "../repos/auditLogs";
import { companyOf, companyRef, findCompany } from "../repos/companies";
import { groupsNamedIn, type StoredGroup } from "../repos/scimGroups";
import { settleUsers, type RematchUpdate } from "../repos/userRematch";
import type { StoredUser } from "../repos/users";
import { planUpdate } from "./users/decisions";
import { chooseDepartment, groupAssignment, mapRole, type DepartmentChoice } from "./users/rules";

const norm = (name: string) => name.trim().toLowerCase();

/** What the settling transaction reads: the maps as they are now and the groups the map names. */
interface GroupContext {
  groupMap: Record<string, unknown>;
  roleMap: Record<string, unknown>;
  mapped: StoredGroup[];
  /** The departments the map names, chosen before the transaction (by lower-cased name). */
  departments: Map<string, DepartmentChoice>;
}

/** The departments a group map names, as a provider's `department` would be matched. */
async function departmentsOf(companyId: string): Promise<Map<string, DepartmentChoice>> {
  const company = await findCompany(companyId);
  const names = Object.values(company?.provisioningGroupMap ?? {})
    .map((entry) => (entry as { department?: unknown } | null)?.department)
    .filter((name): name is string => typeof name === "string" && Boolean(name.trim()));
  const source = company?.provisioningDepartmentSource ?? "app";
  const choices = await Promise.all(
    names.map(async (name) => {
      const choice = await chooseDepartment(companyId, name, "record", { creating: false, source });
      return [norm(name), choice] as const;
    }),
  );
  return new Map(choices);
}

/**
 * What the user's groups give as they are stored now: the highest mapped role wins over the
 * `roles` value; no role-mapped group (the map emptied or deleted included) returns the user to
 * what `roles` gives; a mapped department is set, and kept when the user leaves. Never an elevated
 * role, never the owner's or a Key User's role (planUpdate).
 */
function decide(context: GroupContext, user: StoredUser): RematchUpdate | null {
  const names = context.mapped
    .filter((group) => user.scimGroups.includes(group.id))
    .map((group) => group.displayName);
  const given = groupAssignment(context.groupMap, names);
  const role = given.role
    ? { role: given.role, idpRole: user.idpRole }
    : user.groupRole
      ? { role: mapRole(context.roleMap, user.idpRole), idpRole: user.idpRole }
      : undefined;
  const department = given.department
    ? (context.departments.get(norm(given.department)) ?? {})
    : {};
  const change = planUpdate(user, { role, department, groupRole: given.role }, Timestamp.now());
  return change ? change.update : null;
}

/**
 * The company's `provisioningGroupMap` applied to these users (docs/firestore-data.md): in
 * transactions of 200 users that read the company's maps, the groups the map names and the users'
 * stored memberships, so concurrent changes of groups and of the map converge on what is stored
 * last; each change commits with its `user.updated` entry, and each user's pending re-match
 * (`groupRoleDueAt`) is cleared in it. Answers how many users changed.
 */
export async function applyGroupMap(
  companyId: string,
  uids: readonly string[],
  origin: AuditOrigin,
): Promise<number> {
  if (!uids.length) return 0;
  const departments = await departmentsOf(companyId);
  return settleUsers(
    companyId,
    [...new Set(uids)],
    origin,
    async (t): Promise<GroupContext | null> => {
      const company = companyOf(await t.get(companyRef(companyId)));
      if (!company) return null;
      const groupMap = company.provisioningGroupMap ?? {};
      const keys = [...new Set(Object.keys(groupMap).map(norm))];
      const mapped = keys.length ? await groupsNamedIn(t, companyId, keys) : [];
      return { groupMap, roleMap: company.provisioningRoleMap ?? {}, mapped, departments };
    },
    decide,
  );
}
