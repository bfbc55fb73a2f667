import { FieldPath, type Timestamp, type Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { isDocumentId } from "../lib/documentId";
import { auditEntry, type AuditOrigin } from "./auditLogs";
import {
  nullableString,
  parseSnapshot,
  text,
  timestamp,
  type Stored,
  type StoredSnapshot,
} from "./stored";
import { parseUser, usersCollection } from "./users";

/**
 * `companies/{c}/scimGroups/{id}` and the membership kept on the members' user documents
 * (`scimGroups`, docs/firestore-data.md "SCIM groups"): the reads, and the group audit entry.
 * The writes are in scimGroupWrites.ts, a change too large for one request in groupRematches.ts.
 */
export const groupsCollection = (companyId: string) =>
  firestore().collection("companies").doc(companyId).collection("scimGroups");

const groupShape = {
  displayName: text,
  displayNameKey: nullableString,
  externalId: nullableString,
  createdAt: timestamp,
  updatedAt: timestamp,
};
export type StoredGroup = Stored<typeof groupShape> & { id: string };
export const parseGroup = (snap: StoredSnapshot): StoredGroup => parseSnapshot(groupShape, snap);

/** A member as a group lists it: the user's id and name. */
export interface Member {
  id: string;
  displayName: string | null;
}

/** The fields a request sets on a group (`displayNameKey` follows `displayName`). */
export interface GroupFields {
  displayName: string;
  externalId: string | null;
}

/** The most groups one user may be a member of (their document carries the list). */
export const MAX_GROUPS_PER_USER = 1000;

export async function findGroup(companyId: string, id: string): Promise<StoredGroup | null> {
  if (!isDocumentId(id)) return null;
  const snap = await groupsCollection(companyId).doc(id).get();
  return snap.exists ? parseGroup(snap) : null;
}

/** The ids of the company's groups (a read per group, none of their members). */
export async function groupIdsOf(companyId: string): Promise<string[]> {
  return (await groupsCollection(companyId).select().get()).docs.map((d) => d.id);
}

/** The company's groups among these ids (ids of deleted groups find none). */
export async function groupsByIds(
  companyId: string,
  ids: readonly string[],
): Promise<StoredGroup[]> {
  const valid = ids.filter(isDocumentId);
  const found: StoredGroup[] = [];
  for (let i = 0; i < valid.length; i += 300) {
    const refs = valid.slice(i, i + 300).map((id) => groupsCollection(companyId).doc(id));
    found.push(...(await firestore().getAll(...refs)).filter((s) => s.exists).map(parseGroup));
  }
  return found;
}

/**
 * The company's groups whose field equals the value (a `displayName eq` filter passes the
 * lower-cased key).
 */
export async function groupsWhere(
  companyId: string,
  field: "displayNameKey" | "externalId",
  value: string,
): Promise<StoredGroup[]> {
  return (await groupsCollection(companyId).where(field, "==", value).get()).docs.map(parseGroup);
}

/** A page of the company's groups by creation, and how many there are. */
export async function groupsWindow(
  companyId: string,
  offset: number,
  limit: number,
): Promise<{ total: number; groups: StoredGroup[] }> {
  const base = groupsCollection(companyId).orderBy("createdAt").orderBy(FieldPath.documentId());
  const total = (await base.count().get()).data().count;
  if (limit === 0 || offset >= total) return { total, groups: [] };
  const page = await base.offset(offset).limit(limit).get();
  return { total, groups: page.docs.map(parseGroup) };
}

const onRoster = (companyId: string) => (d: FirebaseFirestore.QueryDocumentSnapshot) =>
  d.get("companyId") === companyId && !d.get("removedAt");

const memberQuery = (groupId: string) =>
  usersCollection().where("scimGroups", "array-contains", groupId);

/** The group's members: the company's users on the roster whose list holds the group, by id. */
export async function membersOf(companyId: string, groupId: string): Promise<Member[]> {
  const snap = await memberQuery(groupId).select("companyId", "removedAt", "displayName").get();
  return snap.docs
    .filter(onRoster(companyId))
    .map((d) => ({ id: d.id, displayName: (d.get("displayName") as string | null) ?? null }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * How many users' lists hold the group (removed users included: an upper bound of its members);
 * an aggregation, 1 read per 1,000 of them.
 */
export async function memberCount(groupId: string): Promise<number> {
  return (await memberQuery(groupId).count().get()).data().count;
}

/**
 * Of `ids`: those that are no user on the company's roster (`invalid`), those in the group now
 * (`members`), those whose list is full, and those with a group change not yet applied (`due`).
 * Read 300 at a time; after a chunk with an invalid id it stops (`invalid` then names that
 * chunk's only): a request naming thousands of unknown ids costs one chunk of reads.
 */
export async function membershipOf(
  companyId: string,
  groupId: string,
  ids: string[],
): Promise<{ invalid: string[]; members: Set<string>; full: string[]; due: Set<string> }> {
  const found = { invalid: [] as string[], members: new Set<string>(), full: [] as string[] };
  const due = new Set<string>();
  for (let i = 0; i < ids.length && !found.invalid.length; i += 300) {
    const chunk = ids.slice(i, i + 300);
    const valid = chunk.filter(isDocumentId);
    const snaps = valid.length
      ? await firestore().getAll(...valid.map((id) => usersCollection().doc(id)))
      : [];
    const users = new Map(
      snaps
        .filter((s) => s.exists)
        .map(parseUser)
        .filter((u) => u.companyId === companyId && !u.removedAt)
        .map((u) => [u.id, u]),
    );
    for (const id of chunk) {
      const user = users.get(id);
      if (user?.groupRoleDueAt) due.add(id);
      if (!user) found.invalid.push(id);
      else if (user.scimGroups.includes(groupId)) found.members.add(id);
      else if (user.scimGroups.length >= MAX_GROUPS_PER_USER) found.full.push(id);
    }
  }
  return { ...found, due };
}

/**
 * The company's groups named by these keys (`displayNameKey`), read in the transaction `t`: the
 * groups a group map names (30 keys a query).
 */
export async function groupsNamedIn(
  t: Transaction,
  companyId: string,
  keys: readonly string[],
): Promise<StoredGroup[]> {
  const found: StoredGroup[] = [];
  for (let i = 0; i < keys.length; i += 30) {
    const query = groupsCollection(companyId).where("displayNameKey", "in", keys.slice(i, i + 30));
    found.push(...(await t.get(query)).docs.map(parseGroup));
  }
  return found;
}

/** The member ids a change adds and removes, as its audit entry lists them. */
export interface MemberIds {
  added: string[];
  removed: string[];
}

export const groupEntry = (
  groupId: string,
  action: string,
  members: MemberIds,
  origin: AuditOrigin,
  now: Timestamp,
) =>
  auditEntry(
    { ...origin, class: "privileged", action, target: { type: "group", id: groupId }, members },
    now,
  );

/** Users whose group change is due since before `cutoff`, oldest first (the sweep's page). */
export async function usersDueBefore(
  cutoff: Timestamp,
  limit: number,
): Promise<Array<{ id: string; companyId: string | null }>> {
  const snap = await usersCollection()
    .where("groupRoleDueAt", "<=", cutoff)
    .orderBy("groupRoleDueAt")
    .select("companyId")
    .limit(limit)
    .get();
  return snap.docs.map((d) => ({ id: d.id, companyId: (d.get("companyId") as string) ?? null }));
}

export const newGroupId = () => groupsCollection("_").doc().id;

/** Clears the pending marks of users whose company is gone or unknown (nothing to apply). */
export async function clearDueMarks(ids: readonly string[]): Promise<void> {
  const batch = firestore().batch();
  for (const id of ids) batch.update(usersCollection().doc(id), { groupRoleDueAt: null });
  if (ids.length) await batch.commit();
}
