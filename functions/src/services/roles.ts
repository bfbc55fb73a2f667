/**
 * Roles through provisioning: an identity provider's role value (SCIM `roles`) becomes an app
 * role through the company's `provisioningRoleMap`, set by the operator. Unmapped, empty or
 * absent values get `standard`, and elevated roles (`owner`, `admin`, Key User) are never
 * granted, even when mapped: only the roles below can result.
 */
export const GRANTABLE_ROLES = ["standard", "inspector", "manager"];
export const DEFAULT_ROLE = "standard";

const norm = (value: string) => value.trim().toLowerCase();

/** The app role for an IdP role value: an exact key first, then one equal after trimming, case-insensitively. */
export function mapRole(roleMap: Record<string, unknown>, value: string | null | undefined): string {
  if (!value || !value.trim()) return DEFAULT_ROLE;
  const mapped = Object.hasOwn(roleMap, value) ? roleMap[value] : Object.entries(roleMap).find(([key]) => norm(key) === norm(value))?.[1];
  return typeof mapped === "string" && GRANTABLE_ROLES.includes(mapped) ? mapped : DEFAULT_ROLE;
}
