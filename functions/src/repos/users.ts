import { FieldPath, type Query, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { setBounded } from "../lib/bounded";
import { isDocumentId } from "../lib/documentId";
import { accountWithEmail } from "./authAccounts";
import { rangeQuery, streamRows, type Cursor, type RangeQuery } from "./rangeQuery";
import {
  flag,
  freeForm,
  nullableString,
  parseSnapshot,
  stringList,
  timestamp,
  type Stored,
  type StoredSnapshot,
} from "./stored";

/**
 * `users/{uid}` (docs/firestore-data.md, "People"): the one stored shape of a user and its reads.
 * Reads never write; every write goes through userTransaction.ts. A removed user (`removedAt`)
 * stays stored but is on no company's roster, so the company-scoped reads leave it out.
 */
export const usersCollection = () => firestore().collection("users");

export const userShape = {
  companyId: nullableString,
  email: nullableString,
  displayName: nullableString,
  role: nullableString,
  keyUser: flag,
  status: nullableString,
  departmentId: nullableString,
  externalId: nullableString,
  /**
   * API-owned: the SCIM userName as written (absent: the e-mail address) and its lower-cased key.
   */
  userName: nullableString,
  userNameKey: nullableString,
  /**
   * API-owned: the sign-in address was taken from the SCIM userName and no `emails` were ever sent.
   */
  addressFromUserName: flag,
  /** API-owned: a department name an identity provider sent that matches none of the company's. */
  unmatchedDepartment: nullableString,
  /**
   * API-owned: the role value an identity provider last sent (SCIM), and the app role its mapping
   * gave then.
   */
  idpRole: nullableString,
  idpRoleMappedTo: nullableString,
  /**
   * API-owned: the role the company's group map gave the user through their SCIM groups (it wins
   * over `idpRole`).
   */
  groupRole: nullableString,
  /** API-owned: the SCIM `name` parts (the app knows only `displayName`). */
  givenName: nullableString,
  familyName: nullableString,
  formattedName: nullableString,
  /** API-owned: the SCIM attributes the app has no field for, as sent (scim/profile.ts). */
  scimProfile: freeForm,
  /**
   * API-owned: the ids of the company's SCIM groups the user is a member of (repos/scimGroups.ts).
   */
  scimGroups: stringList,
  /**
   * API-owned: a membership change of the user's groups is not yet applied to their role (set in
   * the batch that changes `scimGroups`, cleared in the transaction that applies it).
   */
  groupRoleDueAt: timestamp,
  provisionedBy: nullableString,
  createdAt: timestamp,
  updatedAt: timestamp,
  deactivatedAt: timestamp,
  removedAt: timestamp,
  /** API-owned: the person has signed in at least once (reactivation returns them to `active`). */
  signedInBefore: flag,
};
export type StoredUser = Stored<typeof userShape> & { id: string };

export const parseUser = (snap: StoredSnapshot): StoredUser => parseSnapshot(userShape, snap);
/**
 * Whether the id can name a document at all (anything else is no user, never a Firestore error).
 */
export const isUserId = isDocumentId;

/**
 * Users of any company with this sign-in address (the uniqueness check). Removal moves `email`
 * aside (userTransaction.ts), so only users removed by older versions and not yet repaired are
 * read besides the holder. No limit: a lookup that stops early can miss the holder behind them.
 */
export const withEmailQuery = (email: string) => usersCollection().where("email", "==", email);
/**
 * The company's users with this address (as for `withEmailQuery`, removed ones are moved aside).
 */
export const rosterEmailQuery = (companyId: string, email: string) =>
  usersCollection().where("companyId", "==", companyId).where("email", "==", email);
/** The company's users with this lower-cased userName (removal moves `userNameKey` aside). */
export const withUserNameKeyQuery = (companyId: string, key: string) =>
  usersCollection().where("companyId", "==", companyId).where("userNameKey", "==", key);

const onRoster = (user: StoredUser | null, companyId: string): user is StoredUser =>
  Boolean(user && user.companyId === companyId && !user.removedAt);
/** The company's live users among `docs` (another company's and removed ones left out). */
export const liveUsers = (companyId: string, docs: QueryDocumentSnapshot[]) =>
  docs.map(parseUser).filter((u): u is StoredUser => onRoster(u, companyId));

/** Any user by id, whatever their company or state (the console's caller). */
export async function findUser(uid: string): Promise<StoredUser | null> {
  if (!isUserId(uid)) return null;
  const snap = await usersCollection().doc(uid).get();
  return snap.exists ? parseUser(snap) : null;
}

/** Users by id in one read (the console's key creators); unknown ids are left out. */
export async function findUsers(uids: readonly string[]): Promise<StoredUser[]> {
  const ids = [...new Set(uids)].filter(isUserId);
  if (!ids.length) return [];
  const snaps = await firestore().getAll(...ids.map((id) => usersCollection().doc(id)));
  return snaps.filter((s) => s.exists).map(parseUser);
}

/** The company's user, or null for an unknown, another company's or a removed one. */
export async function findOnRoster(companyId: string, uid: string): Promise<StoredUser | null> {
  if (!isUserId(uid)) return null;
  const snap = await usersCollection().doc(uid).get();
  const user = snap.exists ? parseUser(snap) : null;
  return onRoster(user, companyId) ? user : null;
}

/** Users of any company with this address, removed ones included. */
export async function usersWithEmail(email: string): Promise<StoredUser[]> {
  return (await withEmailQuery(email).get()).docs.map(parseUser);
}

/**
 * One page of the roster by creation, then id; removed users read as null (they still move the
 * cursor).
 */
export async function queryRoster(
  companyId: string,
  q: RangeQuery<"email" | "status">,
): Promise<Array<{ row: StoredUser | null; cursor: Cursor }>> {
  const query = await rangeQuery(usersCollection(), "createdAt", { ...q, fixed: { companyId } });
  return streamRows(query, "createdAt", (doc) => {
    const user = parseUser(doc);
    return onRoster(user, companyId) ? user : null;
  });
}

/**
 * The company's user whose sign-in account has this (lower-cased) address though its stored
 * `email` differs in case (a user created in the app as typed, e.g. `Kari.N@Contoso.no`): Auth
 * finds addresses case-insensitively. `named`: only a user named by its address (no userNameKey).
 */
async function bySignInAccount(companyId: string, key: string, named: boolean) {
  const uid = await accountWithEmail(key);
  const user = uid ? await findOnRoster(companyId, uid) : null;
  const matches =
    user?.email?.toLowerCase() === key && (!named || user.userNameKey === null) ? [user] : [];
  return matches;
}

/** The company's users with this (lower-cased) e-mail address, however the app stored its case. */
export async function rosterByEmail(companyId: string, email: string): Promise<StoredUser[]> {
  const found = liveUsers(companyId, (await rosterEmailQuery(companyId, email).get()).docs);
  return found.length ? found : bySignInAccount(companyId, email, false);
}

/**
 * The company's user with this userName (lower-cased key); users from before `userNameKey` are
 * named by their e-mail address (in any case).
 */
export async function rosterByUserName(companyId: string, key: string): Promise<StoredUser[]> {
  const [named, legacy] = await Promise.all([
    withUserNameKeyQuery(companyId, key).get(),
    rosterEmailQuery(companyId, key).get(),
  ]);
  const found = [
    ...liveUsers(companyId, named.docs),
    ...liveUsers(companyId, legacy.docs).filter((u) => u.userNameKey === null),
  ];
  return found.length ? found : bySignInAccount(companyId, key, true);
}

export async function rosterByExternalId(
  companyId: string,
  externalId: string,
): Promise<StoredUser[]> {
  return liveUsers(
    companyId,
    (
      await usersCollection()
        .where("companyId", "==", companyId)
        .where("externalId", "==", externalId)
        .get()
    ).docs,
  );
}

const ordered = (companyId: string): Query =>
  usersCollection()
    .where("companyId", "==", companyId)
    .orderBy("createdAt")
    .orderBy(FieldPath.documentId());

/**
 * Where recent windows ended, per instance: `companyId NUL offset` → the last document of the
 * window that ended just before `offset`. An identity provider pages through the roster in order
 * (startIndex 1, 1 + count, …), so the next window starts after that document and reads only its
 * own users instead of every skipped one (Firestore bills an offset's skipped documents).
 */
const WINDOW_END_MS = 10 * 60_000;
const MAX_WINDOW_ENDS = 1000;
const windowEnds = new Map<string, { at: number; createdAt: unknown; id: string }>();

/**
 * The live users at positions `offset … offset + limit - 1` of the roster ordered by creation,
 * then id, and how many live users there are. Removal moves `createdAt` aside (see the data
 * contract), so the ordered query holds only live users: a count and one read, which starts
 * after the previous window's last user when this instance served it in the last 10 minutes,
 * else at an offset (billed for every skipped document).
 */
export async function rosterWindow(
  companyId: string,
  offset: number,
  limit: number,
  now = Date.now(),
): Promise<{ total: number; users: StoredUser[] }> {
  const base = ordered(companyId);
  const total = (await base.count().get()).data().count;
  if (limit === 0 || offset >= total) return { total, users: [] };
  const resume = offset > 0 ? windowEnds.get(`${companyId}\u0000${offset}`) : undefined;
  const fresh = resume && now - resume.at < WINDOW_END_MS ? resume : undefined;
  const page = await (fresh ? base.startAfter(fresh.createdAt, fresh.id) : base.offset(offset))
    .limit(limit)
    .get();
  const last = page.docs.at(-1);
  if (last)
    setBounded(
      windowEnds,
      `${companyId}\u0000${offset + page.size}`,
      { at: now, createdAt: last.get("createdAt") as unknown, id: last.id },
      MAX_WINDOW_ENDS,
    );
  return { total, users: liveUsers(companyId, page.docs) };
}
