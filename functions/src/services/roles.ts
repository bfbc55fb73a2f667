/**
 * Roles through provisioning: an identity provider's role value (SCIM `roles`) becomes an app
 * role through the company's `provisioningRoleMap`, set by the operator. Unmapped, empty or
 * absent values get `standard` (a grantable app role's own name, as SCIM returns it, stands for
 * itself), and elevated roles (`owner`, `admin`, Key User) are never
 * granted, even when mapped: only the roles below can result.
 */
const GRANTABLE_ROLES = ["standard", "inspector", "manager"];
export const DEFAULT_ROLE = "standard";

const norm = (value: string) => value.trim().toLowerCase();

/** The app role for an IdP role value: an exact key first, then one equal after trimming, case-insensitively. */
export function mapRole(roleMap: Record<string, unknown>, value: string | null | undefined): string {
  if (!value || !value.trim()) return DEFAULT_ROLE;
  const mapped = Object.hasOwn(roleMap, value) ? roleMap[value] : Object.entries(roleMap).find(([key]) => norm(key) === norm(value))?.[1];
  if (mapped !== undefined) return typeof mapped === "string" && GRANTABLE_ROLES.includes(mapped) ? mapped : DEFAULT_ROLE;
  // An app role's own name (as SCIM returns it) stands for itself.
  return GRANTABLE_ROLES.find((role) => role === norm(value)) ?? DEFAULT_ROLE;
}
