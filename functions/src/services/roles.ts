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

/** The app role for an IdP role value: an exact key first, then one equal after trimming, case-insensitively. */
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
