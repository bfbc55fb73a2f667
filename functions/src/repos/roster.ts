import { FieldValue, Timestamp, type QueryDocumentSnapshot, type Transaction } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditEntry, auditLogsCollection, type AuditEntry } from "./auditLogs";
import { companyRef, companyShape } from "./companies";
import { documentId } from "./findings";
import { parseSnapshot, parseStored, type Stored, type StoredSnapshot } from "./stored";
import { flag, nullableString, timestamp } from "./storedFields";

/**
 * The company's roster for provisioning: `users/{uid}` and the company's seat counter
 * `seatsUsed`, which always equals the number of its users whose status is `invited` or
 * `active`. Every change of a user commits with the counter and its privileged audit entry in
 * one transaction. API-owned fields: `removedAt` marks a person removed from the roster (the
 * document and the person's records are kept); `signedInBefore` remembers that they signed in.
 */
export const usersCollection = () => firestore().collection("users");
/** Users of any company with this sign-in address (unique among those not removed; the limit leaves room for removed ones). */
export const usersWithEmail = (email: string) => usersCollection().where("email", "==", email).limit(20);
/** The company's users with this lower-cased userName. */
export const usersWithUserName = (companyId: string, key: string) => usersCollection().where("companyId", "==", companyId).where("userNameKey", "==", key).limit(20);

export const rosterShape = {
  companyId: nullableString,
  email: nullableString,
  displayName: nullableString,
  role: nullableString,
  keyUser: flag,
  status: nullableString,
  departmentId: nullableString,
  externalId: nullableString,
  /** API-owned: the SCIM userName as written (absent: the e-mail address) and its lower-cased key. */
  userName: nullableString,
  userNameKey: nullableString,
  /** API-owned: a department name an identity provider sent that matches none of the company's. */
  unmatchedDepartment: nullableString,
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

export class UserNameTakenError extends Error {
  constructor() {
    super("another user of the company has this userName");
    this.name = "UserNameTakenError";
  }
}

/** Deactivating or removing the user would leave the company without an active owner. */
export class LastOwnerError extends Error {
  constructor() {
    super("no other active owner");
    this.name = "LastOwnerError";
  }
}

export const parseUser = (snap: StoredSnapshot): RosterUser => parseSnapshot(rosterShape, snap);
export const onRoster = (user: RosterUser | null, companyId: string): user is RosterUser => Boolean(user && user.companyId === companyId && !user.removedAt);

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

export type ChangeOrigin = Omit<AuditEntry, "at" | "expireAt" | "class" | "action" | "target">;

/**
 * What a change does: the fields written, the seat it takes (+1) or frees (-1), its audit action;
 * `needsOtherOwner`: refused (LastOwnerError) unless another active owner of the company remains.
 */
export interface RosterChange {
  fields: Record<string, unknown>;
  seats: -1 | 0 | 1;
  action: string;
  needsOtherOwner?: boolean;
}

function commit(tx: Transaction, companyId: string, uid: string, change: RosterChange, used: number, origin: ChangeOrigin, now: Timestamp): void {
  if (change.seats) tx.update(companyRef(companyId), { seatsUsed: used + change.seats });
  tx.create(auditLogsCollection(companyId).doc(), auditEntry({ ...origin, class: "privileged", action: change.action, target: { type: "user", id: uid } }, now));
}

const holds = (doc: QueryDocumentSnapshot, uid: string) => doc.id !== uid && !doc.get("removedAt");

/**
 * The uniqueness rules, read in the transaction: an e-mail address belongs to at most one user
 * not removed (of any company: it is a sign-in address); a userName to at most one of the
 * company's users not removed (users from before `userNameKey` hold their e-mail address as it).
 */
async function assertFree(tx: Transaction, companyId: string, uid: string, fields: Record<string, unknown>): Promise<void> {
  if (typeof fields.email === "string") {
    const same = await tx.get(usersWithEmail(fields.email));
    if (same.docs.some((d) => holds(d, uid))) throw new EmailOnRosterError();
  }
  if (typeof fields.userNameKey === "string") {
    const key = fields.userNameKey;
    const [named, legacy] = await Promise.all([
      tx.get(usersWithUserName(companyId, key)),
      tx.get(usersWithEmail(key)),
    ]);
    const legacyHolder = (d: QueryDocumentSnapshot) => d.get("companyId") === companyId && typeof d.get("userNameKey") !== "string";
    if (named.docs.some((d) => holds(d, uid)) || legacy.docs.some((d) => legacyHolder(d) && holds(d, uid))) throw new UserNameTakenError();
  }
}

/** Whether an owner other than `uid` is active in the company (read in the transaction, so two owners cannot both leave). */
async function otherActiveOwner(tx: Transaction, companyId: string, uid: string): Promise<boolean> {
  const owners = await tx.get(usersCollection().where("companyId", "==", companyId).where("role", "==", "owner").where("status", "==", "active").limit(20));
  return owners.docs.some((d) => holds(d, uid));
}

/** Writes a new user and takes a seat if it is seated (invited), or refuses (seats, e-mail, userName) with nothing written. */
export async function commitInvite(companyId: string, uid: string, user: Record<string, unknown>, origin: ChangeOrigin): Promise<RosterUser> {
  return firestore().runTransaction(async (tx) => {
    const seats = await seatsOf(tx, companyId);
    await assertFree(tx, companyId, uid, user);
    const seated = SEATED.includes(String(user.status));
    if (seated && seats.used >= seats.capacity) throw new SeatsExhaustedError(seats.capacity, seats.used);
    const now = Timestamp.now();
    const data = { deactivatedAt: null, ...user, companyId, createdAt: now, updatedAt: now };
    tx.create(usersCollection().doc(uid), data);
    commit(tx, companyId, uid, { fields: data, seats: seated ? 1 : 0, action: "user.invited" }, seats.used, origin, now);
    return parseStored(rosterShape, `users/${uid}`, data, uid);
  }, TX_OPTIONS);
}

/** The document after an update (a field deleted by the change is absent). */
function updated(data: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...data, ...fields };
  for (const [key, value] of Object.entries(fields)) if (value instanceof FieldValue) delete merged[key];
  return merged;
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
    await assertFree(tx, companyId, uid, change.fields);
    if (change.needsOtherOwner && !(await otherActiveOwner(tx, companyId, uid))) throw new LastOwnerError();
    const seats = change.seats ? await seatsOf(tx, companyId, change.seats) : { capacity: 0, used: 0 };
    if (change.seats > 0 && seats.used >= seats.capacity) throw new SeatsExhaustedError(seats.capacity, seats.used);
    const now = Timestamp.now();
    tx.update(snap.ref, { ...change.fields, updatedAt: now });
    commit(tx, companyId, uid, change, seats.used, origin, now);
    return { user: parseStored(rosterShape, snap.ref.path, updated({ ...snap.data() }, { ...change.fields, updatedAt: now }), uid), changed: change };
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
