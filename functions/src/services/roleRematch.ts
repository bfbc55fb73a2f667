import { companyOf, companyRef, findCompany, type CompanyDoc } from "../repos/companies";
import { rematchUsers, rosterWithIdpRole } from "../repos/userRematch";
import type { StoredUser } from "../repos/users";
import { isProtected } from "./users/decisions";
import { mapRole } from "./users/rules";

type RoleSettings = Pick<CompanyDoc, "provisioningRoleMap" | "provisioningRolesSource">;

/**
 * The role a change of the company's role map (or of who owns roles) gives a user, or null to
 * leave them alone: the logic of the `roleRematch` trigger on `companies/{c}`. Only a user with a
 * stored provider value (`idpRole`) changes, never the owner or a Key User, and only to a role
 * the map grants (services/users/rules.ts: never an elevated one). With
 * `provisioningRolesSource: app` the app owns roles once it changed one: only a user whose role is
 * still the one provisioning last gave them (`idpRoleMappedTo`) follows the map; with
 * `identityProvider` every such user does.
 */
export function roleAfterMapChange(company: RoleSettings, user: StoredUser): string | null {
  // A role the group map gave wins over the role map (services/groupMap.ts).
  if (user.idpRole === null || user.groupRole !== null || isProtected(user)) return null;
  const role = mapRole(company.provisioningRoleMap, user.idpRole);
  if (role === user.role) return null;
  const appOwned = company.provisioningRolesSource !== "identityProvider";
  return appOwned && user.role !== user.idpRoleMappedTo ? null : role;
}

/**
 * Maps the stored provider value of the company's users again, after the role map or the roles'
 * source changed. Each user's change and its `user.updated` audit entry commit in one
 * transaction, which re-reads the company and the user: the map applied is the current one (a
 * retried or late trigger converges on it) and a change made in the meantime wins. Answers how
 * many users changed.
 */
export async function rematchRoles(companyId: string): Promise<number> {
  const company = await findCompany(companyId);
  if (!company) return 0;
  const ids = (await rosterWithIdpRole(companyId))
    .filter((user) => roleAfterMapChange(company, user) !== null)
    .map((user) => user.id);
  return rematchUsers(
    companyId,
    ids,
    { id: "role-rematch", name: "Role re-match" },
    async (t) => companyOf(await t.get(companyRef(companyId))),
    (current, user) => {
      const role = roleAfterMapChange(current, user);
      return role === null ? null : { role, idpRoleMappedTo: role };
    },
  );
}

/**
 * A value in one canonical form (map keys sorted), so a map re-written in another order is no
 * change.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value ?? null;
}

type CompanyData = Record<string, unknown> | undefined;

/**
 * Whether a write of a company document changed one of these fields (every other write, e.g.
 * `seatsUsed`, is not).
 */
const changed =
  (fields: readonly string[]) =>
  (before: CompanyData, after: CompanyData): boolean =>
    Boolean(after) &&
    fields.some(
      (field) =>
        JSON.stringify(canonical(before?.[field])) !== JSON.stringify(canonical(after?.[field])),
    );

/** The role map or who owns roles changed. */
export const roleSettingsChanged = changed(["provisioningRoleMap", "provisioningRolesSource"]);
/** The group map changed (services/groupSweep.ts `rematchGroups`). */
export const groupMapChanged = changed(["provisioningGroupMap"]);
