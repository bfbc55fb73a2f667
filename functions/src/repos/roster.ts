import { Timestamp, type Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection, type AuditEntry } from "./auditLogs";
import { companyRef, companyShape } from "./companies";
import { documentId } from "./findings";
import { rangeQuery, streamRows, type Cursor, type RangeQuery } from "./rangeQuery";
import { flag, nullableString, parseStored, timestamp, type Stored } from "./stored";

/**
 * The company's roster for provisioning: `users/{uid}` and the company's seat counter
 * `seatsUsed`, which always equals the number of its users whose status is `invited` or
 * `active`. Every change of a user commits with the counter and its privileged audit entry in
 * one transaction. API-owned fields: `removedAt` marks a person removed from the roster (the
 * document and the person's records are kept); `signedInBefore` remembers that they signed in.
 */
export const usersCollection = () => firestore().collection("users");

export const rosterShape = {
  companyId: nullableString,
  email: nullableString,
  displayName: nullableString,
  role: nullableString,
  keyUser: flag,
  status: nullableString,
  departmentId: nullableString,
  externalId: nullableString,
  /** API-owned: the SCIM `name` parts (the app knows only `displayName`). */
  givenName: nullableString,
  familyName: nullableString,
  formattedName: nullableString,
  provisionedBy: nullableString,
  createdAt: timestamp,
  updatedAt: timestamp,
  deactivatedAt: timestamp,
  removedAt: timestamp,
  /** API-owned: the person has signed in at least once (reactivation returns them to `active`). */
  signedInBefore: flag,
};
export type RosterUser = Stored<typeof rosterShape> & { id: string };

/** Statuses that hold a seat. */
export const SEATED = ["invited", "active"];

export class SeatsExhaustedError extends Error {
  constructor(readonly capacity: number, readonly used: number) {
    super(`all ${capacity} seats are taken`);
    this.name = "SeatsExhaustedError";
  }
}

/** The user is not on this company's roster: unknown, another company's, or `removed` from it. */
export class NotOnRosterError extends Error {
  constructor(readonly removed = false) {
    super("no such user on the company's roster");
    this.name = "NotOnRosterError";
  }
}

export class EmailOnRosterError extends Error {
  constructor() {
    super("a user with this e-mail address exists");
    this.name = "EmailOnRosterError";
  }
}

export const parseUser = (snap: { id: string; ref: { path: string }; data(): unknown }): RosterUser => ({ id: snap.id, ...parseStored(rosterShape, snap.ref.path, snap.data()) });
export const onRoster = (user: RosterUser | null, companyId: string): user is RosterUser => Boolean(user && user.companyId === companyId && !user.removedAt);

export async function findOnRoster(companyId: string, uid: string): Promise<RosterUser | null> {
  if (!documentId.safeParse(uid).success) return null;
  const snap = await usersCollection().doc(uid).get();
  const user = snap.exists ? parseUser(snap) : null;
  return onRoster(user, companyId) ? user : null;
}

/** Whether any user document (any company, removed ones included) has this e-mail address. */
export async function emailOnAnyRoster(email: string): Promise<boolean> {
  return !(await usersCollection().where("email", "==", email).limit(1).get()).empty;
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

/** Every invitation of a company contends on its seat counter: room for bursts before giving up. */
const TX_OPTIONS = { maxAttempts: 30 };

const seatedCount = (companyId: string) => usersCollection().where("companyId", "==", companyId).where("status", "in", SEATED).count();

/**
 * Seats of the company, read in the transaction. A counter that is unreadable, or that a
 * change would take below zero (it drifted), is recounted from the roster.
 */
async function seatsOf(tx: Transaction, companyId: string, delta = 0): Promise<{ capacity: number; used: number }> {
  const snap = await tx.get(companyRef(companyId));
  const company = parseStored(companyShape, snap.ref.path, snap.data());
  const capacity = company.seatCapacity !== null && company.seatCapacity >= 0 ? Math.floor(company.seatCapacity) : 0;
  const stored = company.seatsUsed;
  if (stored !== null && Number.isInteger(stored) && stored >= 0 && stored + delta >= 0) return { capacity, used: stored };
  return { capacity, used: (await tx.get(seatedCount(companyId))).data().count };
}

/** Outside a transaction: whether a seat looks free (a cheap early refusal; the transaction decides). */
export async function seatsLookFull(companyId: string): Promise<{ capacity: number; used: number } | null> {
  const seats = await firestore().runTransaction((tx) => seatsOf(tx, companyId), { readOnly: true });
  return seats.used >= seats.capacity ? seats : null;
}

export async function userExists(uid: string): Promise<boolean> {
  return (await usersCollection().doc(uid).get()).exists;
}

export type ChangeOrigin = Omit<AuditEntry, "at" | "expireAt" | "class" | "action" | "target">;

/** What a change does: the fields written, the seat it takes (+1) or frees (-1), its audit action. */
export interface RosterChange {
  fields: Record<string, unknown>;
  seats: -1 | 0 | 1;
  action: string;
}

function commit(tx: Transaction, companyId: string, uid: string, change: RosterChange, used: number, origin: ChangeOrigin, now: Timestamp): void {
  if (change.seats) tx.update(companyRef(companyId), { seatsUsed: used + change.seats });
  tx.create(auditLogsCollection(companyId).doc(), auditEntry({ ...origin, class: "privileged", action: change.action, target: { type: "user", id: uid } }, now));
}

/** Writes a new user and takes a seat if it is seated (invited), or refuses (seats, e-mail) with nothing written. */
export async function commitInvite(companyId: string, uid: string, user: Record<string, unknown>, origin: ChangeOrigin): Promise<RosterUser> {
  return firestore().runTransaction(async (tx) => {
    const seats = await seatsOf(tx, companyId);
    const sameEmail = await tx.get(usersCollection().where("email", "==", user.email).limit(1));
    if (!sameEmail.empty) throw new EmailOnRosterError();
    const seated = SEATED.includes(String(user.status));
    if (seated && seats.used >= seats.capacity) throw new SeatsExhaustedError(seats.capacity, seats.used);
    const now = Timestamp.now();
    const data = { deactivatedAt: null, ...user, companyId, createdAt: now, updatedAt: now };
    tx.create(usersCollection().doc(uid), data);
    commit(tx, companyId, uid, { fields: data, seats: seated ? 1 : 0, action: "user.invited" }, seats.used, origin, now);
    return { id: uid, ...parseStored(rosterShape, `users/${uid}`, data) };
  }, TX_OPTIONS);
}

/**
 * Applies the change `decide` makes of the user as the transaction reads them (null: nothing
 * to do, harmless to repeat). A change that takes a seat is refused when none is free.
 */
export async function commitChange(
  companyId: string,
  uid: string,
  decide: (user: RosterUser) => RosterChange | null,
  origin: ChangeOrigin,
): Promise<{ user: RosterUser; changed: RosterChange | null }> {
  if (!documentId.safeParse(uid).success) throw new NotOnRosterError();
  return firestore().runTransaction(async (tx) => {
    const snap = await tx.get(usersCollection().doc(uid));
    const user = snap.exists ? parseUser(snap) : null;
    const removed = Boolean(user && user.companyId === companyId && user.removedAt);
    if (!onRoster(user, companyId)) throw new NotOnRosterError(removed);
    const change = decide(user);
    if (!change) return { user, changed: null };
    // A new e-mail address is refused in the transaction if any other user has it.
    if (typeof change.fields.email === "string") {
      const sameEmail = await tx.get(usersCollection().where("email", "==", change.fields.email).limit(2));
      if (sameEmail.docs.some((d) => d.id !== uid)) throw new EmailOnRosterError();
    }
    const seats = change.seats ? await seatsOf(tx, companyId, change.seats) : { capacity: 0, used: 0 };
    if (change.seats > 0 && seats.used >= seats.capacity) throw new SeatsExhaustedError(seats.capacity, seats.used);
    const now = Timestamp.now();
    tx.update(snap.ref, { ...change.fields, updatedAt: now });
    commit(tx, companyId, uid, change, seats.used, origin, now);
    return { user: { ...user, ...parseStored(rosterShape, snap.ref.path, { ...snap.data(), ...change.fields, updatedAt: now }) }, changed: change };
  }, TX_OPTIONS);
}

/**
 * What a sign-in finds on the roster: `refused` for a deactivated or removed person; an
 * invited person becomes `active` at their first sign-in (they hold their seat already).
 * People with no user document (platform staff) are not the roster's to decide.
 */
export async function recordSignIn(uid: string): Promise<"allowed" | "refused"> {
  if (!documentId.safeParse(uid).success) return "allowed";
  return firestore().runTransaction(async (tx) => {
    const snap = await tx.get(usersCollection().doc(uid));
    if (!snap.exists) return "allowed";
    const user = parseUser(snap);
    if (user.removedAt || user.status === "deactivated") return "refused";
    if (user.status === "invited") tx.update(snap.ref, { status: "active", signedInBefore: true, updatedAt: Timestamp.now() });
    else if (!user.signedInBefore) tx.update(snap.ref, { signedInBefore: true });
    return "allowed";
  });
}
