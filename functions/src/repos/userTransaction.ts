import {
  FieldValue,
  Timestamp,
  type DocumentSnapshot,
  type Query,
  type Transaction,
} from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { intentIn, type AccountIntent } from "./accountIntents";
import { auditEntry, auditLogsCollection, type AuditOrigin } from "./auditLogs";
import { companyRef, companyShape } from "./companies";
import { movedAside } from "./movedAside";
import { parseStored } from "./stored";
import { runContended } from "./transactions";
import {
  isUserId,
  parseUser,
  usersCollection,
  userShape,
  withEmailQuery,
  withUserNameKeyQuery,
  type StoredUser,
} from "./users";

/**
 * The writes of `users/{uid}`: a transaction's primitives, so that a user, the company's seat
 * counter and the change's privileged audit entry commit together. They read and write what
 * they are told: every decision (seats, uniqueness, owners, state changes) is the users
 * service's.
 */

export type UserStatus = "invited" | "active" | "deactivated";

/** A new user's fields (the repo adds `companyId`, `createdAt` and `updatedAt`). */
export interface NewUserRecord {
  /** Null: a SCIM user without an address (no sign-in account). */
  email: string | null;
  userName: string;
  userNameKey: string;
  displayName: string;
  role: string;
  status: UserStatus;
  deactivatedAt: Timestamp | null;
  departmentId: string | null;
  unmatchedDepartment?: string;
  idpRole?: string | null;
  idpRoleMappedTo?: string;
  provisionedBy: "api" | "scim";
  externalId?: string;
  addressFromUserName?: true;
  givenName?: string | null;
  familyName?: string | null;
  formattedName?: string | null;
  scimProfile?: Record<string, unknown>;
}

/**
 * What a change sets (null clears a field; a field left out is kept). `removal` takes the user
 * off the roster: `removedAt` set (kept if set before) and `createdAt` moved to
 * `removedCreatedAt`, so the user drops out of every query ordered by creation.
 */
export interface UserUpdate {
  status?: UserStatus;
  deactivatedAt?: Timestamp | null;
  signedInBefore?: true;
  email?: string;
  userName?: string;
  userNameKey?: string;
  addressFromUserName?: boolean;
  displayName?: string;
  departmentId?: string | null;
  unmatchedDepartment?: string | null;
  externalId?: string | null;
  role?: string;
  idpRole?: string | null;
  idpRoleMappedTo?: string;
  groupRole?: string | null;
  groupRoleDueAt?: null;
  givenName?: string | null;
  familyName?: string | null;
  formattedName?: string | null;
  /** Replaces the whole map. */
  scimProfile?: Record<string, unknown>;
  removal?: true;
}

/** The stored seat fields of a company, as read (no interpretation). */
export interface StoredSeats {
  seatCapacity: number | null;
  seatsUsed: number | null;
}

/** The transaction's reads and writes (Firestore: every read before the first write). */
export interface UserTransaction {
  /** The commit time of this attempt, for every timestamp it writes. */
  readonly now: Timestamp;
  user(uid: string): Promise<StoredUser | null>;
  /** The sign-in account intent of `uid` (repos/accountIntents.ts), or null. */
  intent(uid: string): Promise<AccountIntent | null>;
  seats(companyId: string): Promise<StoredSeats>;
  countWithStatus(companyId: string, statuses: readonly string[]): Promise<number>;
  /** The company's deactivated users on the roster (removed ones have no `createdAt`). */
  countDeactivatedOnRoster(companyId: string): Promise<number>;
  /** Users (of any company, removed ones included) with this address. */
  withEmail(email: string): Promise<StoredUser[]>;
  /** The company's users (removed ones included) with this userName key. */
  withUserNameKey(companyId: string, key: string): Promise<StoredUser[]>;
  withRoleAndStatus(companyId: string, role: string, status: string): Promise<StoredUser[]>;
  create(companyId: string, uid: string, record: NewUserRecord): StoredUser;
  /**
   * Updates a user read by `user()` in this transaction; `touch: false` leaves `updatedAt` alone.
   */
  update(uid: string, change: UserUpdate, options?: { touch?: boolean }): StoredUser;
  setSeatsUsed(companyId: string, used: number): void;
  audit(companyId: string, uid: string, action: string, origin: AuditOrigin): void;
}

const SIMPLE_FIELDS = Object.keys(userShape).filter(
  (f) => !["companyId", "createdAt", "updatedAt", "removedAt"].includes(f),
);

/** The Firestore fields of a change, given the stored document it applies to. */
function fieldsOf(
  change: UserUpdate,
  data: Record<string, unknown>,
  now: Timestamp,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(change))
    if (value !== undefined && SIMPLE_FIELDS.includes(key)) fields[key] = value;
  if (change.removal) {
    if (!data.removedAt) fields.removedAt = now;
    Object.assign(fields, movedAside(data));
  }
  return fields;
}

/** The document after an update (a deleted field is absent). */
function merged(
  data: Record<string, unknown>,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...data, ...fields };
  for (const [key, value] of Object.entries(fields))
    if (value instanceof FieldValue) delete result[key];
  return result;
}

function userTransaction(tx: Transaction): UserTransaction {
  const read = new Map<string, DocumentSnapshot>();
  const users = async (query: Query) => (await tx.get(query)).docs.map(parseUser);
  const now = Timestamp.now();
  return {
    now,
    async user(uid) {
      if (!isUserId(uid)) return null;
      const snap = await tx.get(usersCollection().doc(uid));
      read.set(uid, snap);
      return snap.exists ? parseUser(snap) : null;
    },
    intent: (uid) => (isUserId(uid) ? intentIn(tx, uid) : Promise.resolve(null)),
    async seats(companyId) {
      const snap = await tx.get(companyRef(companyId));
      const company = parseStored(companyShape, snap.ref.path, snap.data());
      return { seatCapacity: company.seatCapacity, seatsUsed: company.seatsUsed };
    },
    async countWithStatus(companyId, statuses) {
      return (
        await tx.get(
          usersCollection()
            .where("companyId", "==", companyId)
            .where("status", "in", [...statuses])
            .count(),
        )
      ).data().count;
    },
    async countDeactivatedOnRoster(companyId) {
      return (
        await tx.get(
          usersCollection()
            .where("companyId", "==", companyId)
            .where("status", "==", "deactivated")
            .orderBy("createdAt")
            .count(),
        )
      ).data().count;
    },
    withEmail: (email) => users(withEmailQuery(email)),
    withUserNameKey: (companyId, key) => users(withUserNameKeyQuery(companyId, key)),
    withRoleAndStatus: (companyId, role, status) =>
      users(
        usersCollection()
          .where("companyId", "==", companyId)
          .where("role", "==", role)
          .where("status", "==", status)
          .limit(20),
      ),
    create(companyId, uid, record) {
      const data = { ...record, companyId, createdAt: now, updatedAt: now };
      tx.create(usersCollection().doc(uid), data);
      return parseStored(userShape, `users/${uid}`, data, uid);
    },
    update(uid, change, { touch = true } = {}) {
      const snap = read.get(uid);
      if (!snap?.exists) throw new Error(`users/${uid} was not read in this transaction`);
      const fields = {
        ...fieldsOf(change, snap.data() ?? {}, now),
        ...(touch ? { updatedAt: now } : {}),
      };
      tx.update(snap.ref, fields);
      return parseStored(userShape, snap.ref.path, merged({ ...snap.data() }, fields), uid);
    },
    setSeatsUsed(companyId, used) {
      tx.update(companyRef(companyId), { seatsUsed: used });
    },
    audit(companyId, uid, action, origin) {
      tx.create(
        auditLogsCollection(companyId).doc(),
        auditEntry(
          { ...origin, class: "privileged", action, target: { type: "user", id: uid } },
          now,
        ),
      );
    },
  };
}

/**
 * Runs `work` in a read-write transaction (retried on contention, so `work` must be repeatable).
 */
export function runUserTransaction<T>(work: (tx: UserTransaction) => Promise<T>): Promise<T> {
  return runContended((tx) => work(userTransaction(tx)));
}

/** Runs `work` in a read-only transaction (its writes would fail). */
export function readUserTransaction<T>(work: (tx: UserTransaction) => Promise<T>): Promise<T> {
  return firestore().runTransaction((tx) => work(userTransaction(tx)), { readOnly: true });
}
