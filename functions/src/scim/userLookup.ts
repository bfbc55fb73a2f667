import type { StoredUser } from "../repos/users";
import { findOnRoster, rosterByEmail, rosterByExternalId, rosterByUserName } from "../repos/users";
import type { UserTerm } from "./userFilter";

const byCreation = (a: StoredUser, b: StoredUser) =>
  (a.createdAt?.toMillis() ?? 0) - (b.createdAt?.toMillis() ?? 0) || (a.id < b.id ? -1 : 1);

const LOOKUPS = {
  email: rosterByEmail,
  userName: rosterByUserName,
  externalId: rosterByExternalId,
};
const valueOf = (user: StoredUser, key: UserTerm["key"]) =>
  key === "userName"
    ? (user.userNameKey ?? user.email?.toLowerCase())
    : key === "email"
      ? user.email?.toLowerCase()
      : user[key];

/** The users every term matches: the first term is looked up, the others checked on its results. */
export async function usersMatching(companyId: string, terms: UserTerm[]): Promise<StoredUser[]> {
  const [first, ...rest] = terms;
  const found =
    first.key === "id"
      ? [await findOnRoster(companyId, first.value)].filter((u): u is StoredUser => u !== null)
      : await LOOKUPS[first.key](companyId, first.value);
  return found.filter((u) => rest.every((t) => valueOf(u, t.key) === t.value)).sort(byCreation);
}
