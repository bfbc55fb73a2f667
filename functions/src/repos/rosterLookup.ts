import { FieldPath, FieldValue, type Query, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { companyRef } from "./companies";
import { documentId } from "./findings";
import { rangeQuery, streamRows, type Cursor, type RangeQuery } from "./rangeQuery";
import { onRoster, parseUser, usersCollection, usersWithEmail, usersWithUserName, type RosterUser } from "./roster";

/**
 * Roster reads: one user, the company's departments, the /v1 listing by cursor, the SCIM
 * filters' exact lookups, and SCIM windows by position (`startIndex`/`count`). Removed users are
 * never counted or returned.
 */
const live = (companyId: string, docs: QueryDocumentSnapshot[]) => docs.map(parseUser).filter((u): u is RosterUser => onRoster(u, companyId));

export async function findOnRoster(companyId: string, uid: string): Promise<RosterUser | null> {
  if (!documentId.safeParse(uid).success) return null;
  const snap = await usersCollection().doc(uid).get();
  const user = snap.exists ? parseUser(snap) : null;
  return onRoster(user, companyId) ? user : null;
}

export async function userExists(uid: string): Promise<boolean> {
  return (await usersCollection().doc(uid).get()).exists;
}

/** Whether the user exists and was removed from their company's roster. */
export async function isRemovedUser(uid: string): Promise<boolean> {
  if (!documentId.safeParse(uid).success) return false;
  const snap = await usersCollection().doc(uid).get();
  return snap.exists && Boolean(snap.get("removedAt"));
}

/** Whether a user not removed (of any company) has this e-mail address. */
export async function emailHeld(email: string): Promise<boolean> {
  return (await usersWithEmail(email).get()).docs.some((d) => !d.get("removedAt"));
}

/** `companies/{companyId}/departments/{id}`, as far as the APIs use it. */
export interface Department {
  id: string;
  name: string;
}

export async function departmentsOf(companyId: string): Promise<Department[]> {
  const snap = await companyRef(companyId).collection("departments").get();
  return snap.docs.flatMap((d) => (typeof d.get("name") === "string" ? [{ id: d.id, name: d.get("name") as string }] : []));
}

/** One page of the roster by creation, then id; removed users read as null (they still move the cursor). */
export async function queryRoster(companyId: string, q: RangeQuery<"email" | "status">): Promise<Array<{ row: RosterUser | null; cursor: Cursor }>> {
  const query = await rangeQuery(usersCollection(), "createdAt", { ...q, fixed: { companyId } });
  return streamRows(query, "createdAt", (doc) => {
    const user = parseUser(doc);
    return onRoster(user, companyId) ? user : null;
  });
}

/** The company's users with this (lower-cased) e-mail address. */
export async function rosterByEmail(companyId: string, email: string): Promise<RosterUser[]> {
  return live(companyId, (await usersWithEmail(email).get()).docs);
}

/** The company's user with this userName (lower-cased key); users from before `userNameKey` are named by their e-mail address. */
export async function rosterByUserName(companyId: string, key: string): Promise<RosterUser[]> {
  const [named, legacy] = await Promise.all([
    usersWithUserName(companyId, key).get(),
    usersWithEmail(key).get(),
  ]);
  return [...live(companyId, named.docs), ...live(companyId, legacy.docs).filter((u) => u.userNameKey === null)];
}

export async function rosterByExternalId(companyId: string, externalId: string): Promise<RosterUser[]> {
  return live(companyId, (await usersCollection().where("companyId", "==", companyId).where("externalId", "==", externalId).limit(50).get()).docs);
}

/** What a window cost, as Firestore bills it (a count: one read per 1,000 entries; an offset: every skipped document). */
export interface ReadStats {
  queries: number;
  billedReads: number;
}

const ordered = (companyId: string): Query => usersCollection().where("companyId", "==", companyId).orderBy("createdAt").orderBy(FieldPath.documentId());

/**
 * Users removed before removal moved `createdAt` aside still sit in the ordered roster: moved
 * now, a hundred at a time. Once none is left this costs one read (an empty query).
 */
async function moveAsideRemoved(companyId: string, stats: ReadStats): Promise<void> {
  for (;;) {
    const stale = await usersCollection().where("companyId", "==", companyId).where("removedAt", "!=", null).orderBy("removedAt").orderBy("createdAt").limit(100).get();
    stats.queries++;
    stats.billedReads += Math.max(1, stale.size);
    if (stale.empty) return;
    const batch = usersCollection().firestore.batch();
    for (const doc of stale.docs) batch.update(doc.ref, { createdAt: FieldValue.delete(), removedCreatedAt: doc.get("createdAt") });
    await batch.commit();
  }
}

/**
 * The live users at positions `offset … offset + limit - 1` of the roster ordered by creation,
 * then id, and how many live users there are. Removed users have no `createdAt` (see the data
 * contract), so the ordered query holds only live ones: a count and one read with an offset
 * (Firestore bills the skipped documents), whatever the number of removed users.
 */
export async function rosterWindow(companyId: string, offset: number, limit: number, stats: ReadStats = { queries: 0, billedReads: 0 }): Promise<{ total: number; users: RosterUser[] }> {
  await moveAsideRemoved(companyId, stats);
  const base = ordered(companyId);
  const total = (await base.count().get()).data().count;
  stats.queries++;
  stats.billedReads += Math.max(1, Math.ceil(total / 1000));
  if (limit === 0 || offset >= total) return { total, users: [] };
  const page = await base.offset(offset).limit(limit).get();
  stats.queries++;
  stats.billedReads += Math.max(1, offset + page.size);
  return { total, users: live(companyId, page.docs) };
}
