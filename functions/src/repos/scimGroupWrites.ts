import { FieldValue, Timestamp } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { auditLogsCollection, type AuditOrigin } from "./auditLogs";
import { readPending, writePending, type PendingChange } from "./groupRematches";
import { groupEntry, groupsCollection, parseGroup, type GroupFields } from "./scimGroups";
import { runContended } from "./transactions";
import { usersCollection } from "./users";

/**
 * The writes of a group change: the group document with its audit entry and its pending re-match
 * (repos/groupRematches.ts) in one transaction, then the members a request names, in batches.
 */

/** Users updated in one batch (Firestore: at most 500 writes a commit). */
const CHUNK = 400;

/** The group was deleted before a change of it committed (read in the change's transaction). */
export class GroupGone extends Error {
  constructor() {
    super("the group no longer exists");
    this.name = "GroupGone";
  }
}

/** The group name is another group's (checked in the transaction that writes the group). */
export class GroupNameTaken extends Error {
  constructor() {
    super("another group of the company has this displayName");
    this.name = "GroupNameTaken";
  }
}

/**
 * Writes the group document, the request's audit entry (with the member ids the change names)
 * and what the change does to the group's pending re-match in one transaction, and returns the
 * time written. The fields the request does not set, and whether it renames the group (a pending
 * re-match), come from the group as this transaction reads it: a change racing a rename keeps the
 * new name, and a change of a group deleted meanwhile throws `GroupGone` instead of re-creating
 * it. The name's uniqueness is read in it too. The members named follow (`changeMembers`).
 */
export async function commitGroup(
  companyId: string,
  groupId: string,
  change: Partial<GroupFields>,
  action: "group.created" | "group.updated",
  pending: PendingChange,
  origin: AuditOrigin,
): Promise<Timestamp> {
  const ref = groupsCollection(companyId).doc(groupId);
  return runContended(async (tx) => {
    const now = Timestamp.now();
    const snap = await tx.get(ref);
    const stored = snap.exists ? parseGroup(snap) : null;
    if (!stored && action === "group.updated") throw new GroupGone();
    const displayName = change.displayName ?? stored?.displayName ?? "";
    const externalId =
      change.externalId === undefined ? (stored?.externalId ?? null) : change.externalId;
    const key = displayName.trim().toLowerCase();
    const named = await tx.get(groupsCollection(companyId).where("displayNameKey", "==", key));
    if (named.docs.some((d) => d.id !== groupId)) throw new GroupNameTaken();
    const record = await readPending(tx, companyId, groupId);
    const renamed = stored !== null && key !== stored.displayNameKey;
    tx.set(ref, {
      displayName,
      displayNameKey: key,
      externalId,
      createdAt: stored?.createdAt ?? now,
      updatedAt: now,
    });
    const members = { added: pending.added, removed: pending.removed };
    tx.create(
      auditLogsCollection(companyId).doc(),
      groupEntry(groupId, action, members, origin, now),
    );
    const start = pending.start ?? (renamed ? "rematch" : undefined);
    writePending(tx, { companyId, groupId, origin, now }, record, { ...pending, start });
    return now;
  });
}

/**
 * A group's deletion: its audit entry, the document's deletion and a pending removal of every
 * member in one transaction; the members leave page by page (services/groupRematch.ts).
 */
export async function deleteGroupDocument(
  companyId: string,
  groupId: string,
  origin: AuditOrigin,
): Promise<void> {
  await runContended(async (tx) => {
    const record = await readPending(tx, companyId, groupId);
    const now = Timestamp.now();
    const none = { added: [], removed: [] };
    tx.create(
      auditLogsCollection(companyId).doc(),
      groupEntry(groupId, "group.deleted", none, origin, now),
    );
    tx.delete(groupsCollection(companyId).doc(groupId));
    const removal = { start: "removal" as const, keep: [], ...none };
    writePending(tx, { companyId, groupId, origin, now }, record, removal);
  });
}

/**
 * Adds the group to, and takes it off, the members' lists, in batches: adding and removing are
 * idempotent, so a retry after a failure between batches completes the change. Each user's change
 * marks their role due (`groupRoleDueAt`) in the same write: an instance stopped before applying
 * it leaves a record the retry or the sweep finds (services/groupMap.ts).
 */
export async function changeMembers(
  groupId: string,
  add: string[],
  remove: string[],
): Promise<void> {
  const changes: Array<[string, FieldValue]> = [
    ...add.map((id): [string, FieldValue] => [id, FieldValue.arrayUnion(groupId)]),
    ...remove.map((id): [string, FieldValue] => [id, FieldValue.arrayRemove(groupId)]),
  ];
  for (let i = 0; i < changes.length; i += CHUNK) {
    const batch = firestore().batch();
    const now = Timestamp.now();
    for (const [id, change] of changes.slice(i, i + CHUNK))
      batch.update(usersCollection().doc(id), { scimGroups: change, groupRoleDueAt: now });
    await batch.commit();
  }
}
