import { EmailTakenError } from "../repos/authAccounts";
import { findCompany, type AttributeSource } from "../repos/companies";
import { departmentsOf, type Department } from "../repos/rosterLookup";
import { EmailOnRosterError, LastOwnerError, NotOnRosterError, SeatsExhaustedError, UserNameTakenError, type RosterUser } from "../repos/roster";
import { DEFAULT_ROLE, mapRole } from "./roles";

/**
 * The rules the user lifecycle applies to one request: the company's provisioning settings
 * (domains, role map, who owns roles and departments), department and role resolution, who is
 * protected, and the service's refusals. Knows nothing of HTTP.
 */
export class UsersError extends Error {
  constructor(
    readonly kind: "conflict" | "username" | "seats" | "not_found" | "unknown_department" | "protected" | "domain",
    message: string,
    readonly seats?: { capacity: number; used: number },
  ) {
    super(message);
    this.name = "UsersError";
  }
}

export const notFound = () => new UsersError("not_found", "No such user in this company.");

export function mapped(err: unknown): unknown {
  if (err instanceof SeatsExhaustedError) {
    return new UsersError("seats", `Seat capacity exhausted: all ${err.capacity} seats of the company are taken (${err.used} in use). Deactivate a user or add seats in the app first.`, { capacity: err.capacity, used: err.used });
  }
  if (err instanceof EmailOnRosterError || err instanceof EmailTakenError) return new UsersError("conflict", "A user with this e-mail address already exists.");
  if (err instanceof UserNameTakenError) return new UsersError("username", "Another user of the company has this userName.");
  if (err instanceof LastOwnerError) {
    return new UsersError("protected", "This user is the company's only active owner: deactivating or removing them would leave the company without one. Make another user owner in the app first.");
  }
  if (err instanceof NotOnRosterError) return notFound();
  return err;
}

export interface ProvisioningSettings {
  roleMap: Record<string, unknown>;
  /** Lower-case e-mail domains; null: any. */
  domains: string[] | null;
  rolesSource: AttributeSource;
  departmentSource: AttributeSource;
}

export async function provisioningSettings(companyId: string): Promise<ProvisioningSettings> {
  const company = await findCompany(companyId);
  return {
    roleMap: company?.provisioningRoleMap ?? {},
    domains: company ? company.provisioningDomains : [],
    rolesSource: company?.provisioningRolesSource ?? "app",
    departmentSource: company?.provisioningDepartmentSource ?? "app",
  };
}

/** Addresses outside the company's domains are refused before anything is looked up, so a key learns nothing about them. */
export function assertInDomains(settings: ProvisioningSettings, email: string): void {
  if (settings.domains === null) return;
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (settings.domains.includes(domain)) return;
  const allowed = settings.domains.length ? `its domains are ${settings.domains.slice(0, 20).join(", ")}` : "it has no e-mail domains configured";
  throw new UsersError("domain", `The address's domain "${domain.slice(0, 100)}" is not one of the company's e-mail domains (${allowed}); the operator of the service sets them.`);
}

/** How an unmatched department name is handled: refused (/v1/users, scripts) or recorded beside the user (SCIM). */
export type UnmatchedDepartment = "refuse" | "record";

/** The department a request asks for: `id` undefined keeps it; `unmatched` undefined leaves that field alone. */
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
  if (name === undefined) return fallback.omittedFromReplace && fallback.source === "identityProvider" ? { id: null, unmatched: null } : {};
  if (name === null) return { id: null, unmatched: null };
  const wanted = name.trim().toLowerCase();
  const match = (await departmentsOf(companyId)).find((d) => d.name.trim().toLowerCase() === wanted);
  if (match) return { id: match.id, unmatched: null };
  if (handling === "refuse") throw new UsersError("unknown_department", `No department named "${name.trim().slice(0, 200)}" in this company.`);
  return { id: fallback.creating ? null : undefined, unmatched: name.trim().slice(0, 200) };
}

/** The app role a request asks for (undefined: keep). Only the operator's role map grants anything but `standard`. */
export function chooseRole(settings: ProvisioningSettings, idpRole: string | null | undefined, omittedFromReplace = false): string | undefined {
  if (idpRole === undefined) return omittedFromReplace && settings.rolesSource === "identityProvider" ? DEFAULT_ROLE : undefined;
  return mapRole(settings.roleMap, idpRole);
}

/** The company's owner and Key Users: provisioning never changes their role or sign-in address, and deactivates them only while another owner stays. */
export const isProtected = (user: RosterUser) => user.role === "owner" || user.keyUser;

export const protectedAddress = () =>
  new UsersError("protected", "This user is the company's owner or holds the Key User role: their sign-in address is changed in the app, not through provisioning.");

/** The name of the user's department, or null. */
export const departmentNameOf = (user: RosterUser, departments: readonly Department[]) => departments.find((d) => d.id === user.departmentId)?.name ?? null;
