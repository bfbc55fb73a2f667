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
