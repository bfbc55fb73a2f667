import {
  departmentsOf,
  findCompany,
  type AttributeSource,
  type Department,
} from "../../repos/companies";
import type { StoredUser } from "../../repos/users";
import { DEFAULT_ROLE, mapRole } from "../roles";
import { outsideDomains, provisioningOff, unknownDepartment } from "./errors";

/**
 * The rules the user lifecycle applies to one request: the company's provisioning settings
 * (domains, role map, who owns roles and departments), department and role resolution, and who
 * is protected. Knows nothing of HTTP.
 */
export interface ProvisioningSettings {
  roleMap: Record<string, unknown>;
  /** SCIM group name → `{ role?, department? }` (roles.ts `groupAssignment`). */
  groupMap: Record<string, unknown>;
  /**
   * Lower-case e-mail domains; empty: provisioning off; null: any (the operator's explicit opt-in).
   */
  domains: string[] | null;
  rolesSource: AttributeSource;
  departmentSource: AttributeSource;
}

export async function provisioningSettings(companyId: string): Promise<ProvisioningSettings> {
  const company = await findCompany(companyId);
  return {
    roleMap: company?.provisioningRoleMap ?? {},
    groupMap: company?.provisioningGroupMap ?? {},
    domains: company ? company.provisioningDomains : [],
    rolesSource: company?.provisioningRolesSource ?? "app",
    departmentSource: company?.provisioningDepartmentSource ?? "app",
  };
}

/**
 * Addresses outside the company's domains are refused before anything is looked up, so a key
 * learns nothing about them; without domains, every address is (provisioning is off by default).
 */
export function assertInDomains(settings: ProvisioningSettings, email: string): void {
  if (settings.domains === null) return;
  if (!settings.domains.length) throw provisioningOff();
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (settings.domains.includes(domain)) return;
  throw outsideDomains(domain, settings.domains);
}

/**
 * How an unmatched department name is handled: refused (/v1/users, scripts) or recorded beside the
 * user (SCIM).
 */
export type UnmatchedDepartment = "refuse" | "record";

/**
 * The department a request asks for: `id` undefined keeps it; `unmatched` undefined leaves that
 * field alone.
 */
export interface DepartmentChoice {
  id?: string | null;
  unmatched?: string | null;
}

export async function chooseDepartment(
  companyId: string,
  name: string | null | undefined,
  handling: UnmatchedDepartment,
  fallback: { creating: boolean; omittedFromReplace?: boolean; source: AttributeSource },
): Promise<DepartmentChoice> {
  if (name === undefined)
    return fallback.omittedFromReplace && fallback.source === "identityProvider"
      ? { id: null, unmatched: null }
      : {};
  if (name === null) return { id: null, unmatched: null };
  const wanted = name.trim().toLowerCase();
  const match = (await departmentsOf(companyId)).find(
    (d) => d.name.trim().toLowerCase() === wanted,
  );
  if (match) return { id: match.id, unmatched: null };
  if (handling === "refuse") throw unknownDepartment(name);
  return { id: fallback.creating ? null : undefined, unmatched: name.trim().slice(0, 200) };
}

/**
 * A role a request sets: the app role, and the provider's value it was mapped from (stored as
 * `idpRole`).
 */
export interface RoleChoice {
  role: string;
  idpRole: string | null;
}

/**
 * The role a request asks for (undefined: keep). Only the operator's role map grants anything but
 * `standard`.
 */
export function chooseRole(
  settings: ProvisioningSettings,
  idpRole: string | null | undefined,
  omittedFromReplace = false,
): RoleChoice | undefined {
  if (idpRole === undefined)
    return omittedFromReplace && settings.rolesSource === "identityProvider"
      ? { role: DEFAULT_ROLE, idpRole: null }
      : undefined;
  return { role: mapRole(settings.roleMap, idpRole), idpRole: idpRole?.slice(0, 200) ?? null };
}

/**
 * A new user's role fields: mapped from the provider's value when one is sent (SCIM), else
 * `standard` (/v1/users: no value stored).
 */
export function roleOfNewUser(settings: ProvisioningSettings, idpRole: string | null | undefined) {
  const choice = chooseRole(settings, idpRole);
  return choice
    ? { role: choice.role, idpRole: choice.idpRole, idpRoleMappedTo: choice.role }
    : { role: DEFAULT_ROLE };
}

/** The name of the user's department, or null. */
export const departmentNameOf = (user: StoredUser, departments: readonly Department[]) =>
  departments.find((d) => d.id === user.departmentId)?.name ?? null;
