import { FieldPath, Timestamp, type Query, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { onRoster, parseUser, usersCollection, type RosterUser } from "./roster";

/**
 * Roster reads of the SCIM adapter: exact lookups for its filters, and windows by position
 * (`startIndex`/`count`) rather than by cursor. Removed users are never counted or returned.
 */
const live = (companyId: string, docs: QueryDocumentSnapshot[]) => docs.map(parseUser).filter((u): u is RosterUser => onRoster(u, companyId));

/** The company's user with this (lower-cased) e-mail address; addresses are unique across companies. */
export async function rosterByEmail(companyId: string, email: string): Promise<RosterUser[]> {
  return live(companyId, (await usersCollection().where("email", "==", email).limit(2).get()).docs);
}

export async function rosterByExternalId(companyId: string, externalId: string): Promise<RosterUser[]> {
  return live(companyId, (await usersCollection().where("companyId", "==", companyId).where("externalId", "==", externalId).limit(50).get()).docs);
}

const ordered = (companyId: string): Query => usersCollection().where("companyId", "==", companyId).orderBy("createdAt").orderBy(FieldPath.documentId());

/** Firestore's order of values of mixed types, enough for the stored `createdAt` (see stored.ts). */
function rank(value: unknown): Array<number | string> {
  if (value === null) return [0];
  if (typeof value === "boolean") return [1, Number(value)];
  if (typeof value === "number") return [2, value];
  if (value instanceof Timestamp) return [3, value.seconds, value.nanoseconds];
  if (typeof value === "string") return [4, value];
  return [5];
}

function byOrder(a: QueryDocumentSnapshot, b: QueryDocumentSnapshot): number {
  const [ra, rb] = [[...rank(a.get("createdAt")), a.id], [...rank(b.get("createdAt")), b.id]];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) if (ra[i] !== rb[i]) return ra[i] < rb[i] ? -1 : 1;
  return ra.length - rb.length;
}

/**
 * The live users at positions `offset … offset + limit - 1` of the roster ordered by creation,
 * then id, and how many live users there are. Removed users are kept in the collection, so the
 * window's start in the full order is found by a binary search over the removed ones with count
 * aggregations (log2 of their number); the window is then read with an offset (Firestore bills
 * the skipped documents), skipping removed users.
 */
export async function rosterWindow(companyId: string, offset: number, limit: number): Promise<{ total: number; users: RosterUser[] }> {
  const base = ordered(companyId);
  const [all, removedSnap] = await Promise.all([
    base.count().get(),
    usersCollection().where("companyId", "==", companyId).where("removedAt", "!=", null).select("createdAt").get(),
  ]);
  const removed = removedSnap.docs.filter((d) => d.get("createdAt") !== undefined).sort(byOrder);
  const total = all.data().count - removed.length;
  if (limit === 0 || offset >= total) return { total, users: [] };
  // The number of removed users before the wanted live one: the first removed user with more than `offset` live users before it.
  let [lo, hi] = [0, removed.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const before = (await base.endBefore(removed[mid]).count().get()).data().count;
    if (before - mid > offset) hi = mid;
    else lo = mid + 1;
  }
  const users: RosterUser[] = [];
  let page = await base.offset(offset + lo).limit(limit).get();
  for (;;) {
    users.push(...live(companyId, page.docs));
    if (users.length >= limit || page.size < limit) return { total, users: users.slice(0, limit) };
    page = await base.startAfter(page.docs[page.size - 1]).limit(limit).get();
  }
}
