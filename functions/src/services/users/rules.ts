import {
  departmentsOf,
  findCompany,
  type AttributeSource,
  type Department,
} from "../../repos/companies";
import type { StoredUser } from "../../repos/users";
import { outsideDomains, provisioningOff, unknownDepartment } from "./userRefusals";

/**
 * The rules the user lifecycle applies to one request: the company's provisioning settings
 * (domains, role map, who owns roles and departments), department and role resolution, and who
 * is protected. Knows nothing of HTTP.
 */
export interface ProvisioningSettings {
  roleMap: Record<string, unknown>;
  /** SCIM group name → `{ role?, department? }` (`groupAssignment` below). */
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

/**
 * Roles through provisioning: an identity provider's role value (SCIM `roles`) becomes an app
 * role only through the company's `provisioningRoleMap`, set by the operator (the spec: "resolved
 * through a mapping configured with the operator"). Unmapped, empty or absent values get
 * `standard`, also a value that merely equals an app role's name; elevated roles (`owner`,
 * `admin`, Key User) are never granted, even when mapped: only the roles below can result.
 */
const GRANTABLE_ROLES = ["standard", "inspector", "manager"];
export const DEFAULT_ROLE = "standard";

const norm = (value: string) => value.trim().toLowerCase();

/**
 * What the company's `provisioningGroupMap` gives a member of these groups (their names): the
 * highest mapped role (in the order of GRANTABLE_ROLES; an entry naming another role is
 * ignored), and the department of the first group, by name, that maps one; null: none.
 */
export function groupAssignment(
  groupMap: Record<string, unknown>,
  groupNames: readonly string[],
): { role: string | null; department: string | null } {
  const entries = new Map(Object.entries(groupMap).map(([name, entry]) => [norm(name), entry]));
  let [rank, department]: [number, string | null] = [-1, null];
  for (const name of [...groupNames].map(norm).sort()) {
    const entry = entries.get(name);
    if (typeof entry !== "object" || entry === null) continue;
    const { role, department: named } = entry as { role?: unknown; department?: unknown };
    if (typeof role === "string") rank = Math.max(rank, GRANTABLE_ROLES.indexOf(role));
    if (department === null && typeof named === "string" && named.trim())
      department = named.trim().slice(0, 200);
  }
  return { role: rank >= 0 ? GRANTABLE_ROLES[rank] : null, department };
}

/**
 * The app role for an IdP role value: an exact key first, then one equal after trimming,
 * case-insensitively.
 */
export function mapRole(
  roleMap: Record<string, unknown>,
  value: string | null | undefined,
): string {
  if (!value || !value.trim()) return DEFAULT_ROLE;
  const mapped = Object.hasOwn(roleMap, value)
    ? roleMap[value]
    : Object.entries(roleMap).find(([key]) => norm(key) === norm(value))?.[1];
  return typeof mapped === "string" && GRANTABLE_ROLES.includes(mapped) ? mapped : DEFAULT_ROLE;
}
