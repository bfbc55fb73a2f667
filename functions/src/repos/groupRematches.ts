import {
  FieldPath,
  FieldValue,
  Timestamp,
  type DocumentSnapshot,
  type Transaction,
} from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { isObject } from "../lib/isObject";
import { auditLogsCollection, type AuditOrigin } from "./auditLogs";
import { groupEntry } from "./scimGroups";
import { nullableString, parseSnapshot, text } from "./stored";
import { runContended } from "./transactions";
import { systemOrigin } from "./userRematch";
import { usersCollection } from "./users";

/**
 * `groupRematches/{companyId}_{groupId}` (docs/firestore-data.md "Pending group re-matches"): a
 * group change whose members are too many for one request, taken a page at a time by the
 * request, the provider's next request on the group and the sweep.
 */
const collection = () => firestore().collection("groupRematches");
const recordRef = (companyId: string, groupId: string) =>
  collection().doc(`${companyId}_${groupId}`);

export type RematchKind = "rematch" | "removal";

/** Ids a pending removal keeps at most: 5,000 ids of 128 characters stay far below 1 MiB. */
export const MAX_KEPT = 5_000;

/** A change would make a pending removal keep more than `MAX_KEPT` members (nothing written). */
export class TooManyKept extends Error {
  constructor() {
    super(`a pending removal keeps at most ${MAX_KEPT} members`);
    this.name = "TooManyKept";
  }
}

const shape = { kind: text, cursor: nullableString, version: text };

interface PendingRecord {
  kind: RematchKind;
  keep: string[];
  cursor: string | null;
  version: string;
  origin: AuditOrigin;
}

function parseRecord(snap: DocumentSnapshot): PendingRecord | null {
  if (!snap.exists) return null;
  const { kind, cursor, version } = parseSnapshot(shape, snap);
  const keep = snap.get("keep") as unknown;
  const origin = snap.get("origin") as unknown;
  return {
    kind: kind === "rematch" ? "rematch" : "removal",
    keep: Array.isArray(keep) ? keep.filter((id): id is string => typeof id === "string") : [],
    cursor,
    version,
    origin: isObject(origin)
      ? (origin as unknown as AuditOrigin)
      : systemOrigin({ id: "group-sweep", name: "Group re-match sweep" }),
  };
}

/**
 * What a group change does to its pending re-match: `start` one (a rename: `rematch`; every
 * member not in `keep` leaves: `removal`), and the members it names (a pending removal keeps
 * those added and no longer keeps those removed).
 */
export interface PendingChange {
  start?: RematchKind;
  keep?: string[];
  added: string[];
  removed: string[];
}

/** Whether members are leaving the group by a pending removal (a request adding one keeps it). */
export async function removalPending(companyId: string, groupId: string): Promise<boolean> {
  return parseRecord(await recordRef(companyId, groupId).get())?.kind === "removal";
}

/** The group's pending re-match, read in the transaction of a group change (before its writes). */
export const readPending = async (t: Transaction, companyId: string, groupId: string) =>
  parseRecord(await t.get(recordRef(companyId, groupId)));

/**
 * Writes what `change` does to the pending re-match `record` (read by `readPending` in `t`). A
 * new start rewrites it from the first member with a new version; a rename while a removal is
 * pending restarts the removal (whose pages look at every member again). Throws `TooManyKept`
 * before writing when a change would grow the removal's list past `MAX_KEPT` members.
 */
export function writePending(
  t: Transaction,
  at: { companyId: string; groupId: string; origin: AuditOrigin; now: Timestamp },
  record: PendingRecord | null,
  change: PendingChange,
): void {
  const ref = recordRef(at.companyId, at.groupId);
  const removed = new Set(change.removed);
  const keep = (ids: string[]) => {
    const kept = [...new Set([...ids, ...change.added])].filter((id) => !removed.has(id));
    // Only a change that grows the list past the cap is refused: a record stored longer (before
    // the cap) still takes renames, removals and a restart, which add nothing to it.
    if (kept.length > MAX_KEPT && kept.length > ids.length) throw new TooManyKept();
    return kept;
  };
  const kind = change.start === "removal" || record?.kind === "removal" ? "removal" : "rematch";
  if (change.start)
    t.set(ref, {
      companyId: at.companyId,
      groupId: at.groupId,
      kind,
      keep: kind === "removal" ? keep(change.keep ?? record?.keep ?? []) : [],
      cursor: null,
      version: collection().doc().id,
      origin: JSON.parse(JSON.stringify(at.origin)) as unknown,
      at: at.now,
    });
  else if (record?.kind === "removal" && (change.added.length || removed.size))
    t.update(ref, { keep: keep(record.keep) });
}

/**
 * Starts the group's pending re-match again from its first member (a change of the group map):
 * a pending removal stays a removal, restarted.
 */
export async function restartRematch(
  companyId: string,
  groupId: string,
  origin: AuditOrigin,
): Promise<void> {
  await runContended(async (t) => {
    const record = await readPending(t, companyId, groupId);
    const at = { companyId, groupId, origin, now: Timestamp.now() };
    writePending(t, at, record, { start: "rematch", added: [], removed: [] });
  });
}

/** A page of a pending re-match: the company's users on it, and where the next one starts. */
export interface RematchPage {
  ids: string[];
  origin: AuditOrigin;
  version: string;
  cursor: string | null;
  next: string | null;
  last: boolean;
}

/**
 * Takes the next `size` members of the group's pending re-match in one transaction: each is
 * marked due (`groupRoleDueAt`), and a removal takes those it does not keep off the group with
 * their `group.members_removed` entry. Null when nothing is pending. The cursor moves on only
 * with `finishPage`, once their roles are applied: a page an instance did not finish is taken
 * again.
 */
export function takePage(
  companyId: string,
  groupId: string,
  size: number,
): Promise<RematchPage | null> {
  return runContended(async (t) => {
    const record = parseRecord(await t.get(recordRef(companyId, groupId)));
    if (!record) return null;
    const members = usersCollection()
      .where("scimGroups", "array-contains", groupId)
      .orderBy(FieldPath.documentId());
    const from = record.cursor ? members.startAfter(record.cursor) : members;
    const page = await t.get(from.select("companyId").limit(size));
    const now = Timestamp.now();
    const keep = new Set(record.keep);
    const mine = page.docs.filter((d) => d.get("companyId") === companyId);
    const leaving = mine.filter((d) => record.kind === "removal" && !keep.has(d.id));
    for (const d of mine) t.update(d.ref, { groupRoleDueAt: now });
    for (const d of leaving) t.update(d.ref, { scimGroups: FieldValue.arrayRemove(groupId) });
    if (leaving.length)
      t.create(
        auditLogsCollection(companyId).doc(),
        groupEntry(
          groupId,
          "group.members_removed",
          { added: [], removed: leaving.map((d) => d.id) },
          record.origin,
          now,
        ),
      );
    const { version, cursor, origin } = record;
    const next = page.docs.at(-1)?.id ?? cursor;
    return { ids: mine.map((d) => d.id), origin, version, cursor, next, last: page.size < size };
  });
}

/** Moves the cursor past `page` (deletes the record after the last), unless it was rewritten. */
export async function finishPage(
  companyId: string,
  groupId: string,
  page: RematchPage,
): Promise<void> {
  const ref = recordRef(companyId, groupId);
  await runContended(async (t) => {
    const record = parseRecord(await t.get(ref));
    if (!record || record.version !== page.version || record.cursor !== page.cursor) return;
    if (page.last) t.delete(ref);
    else t.update(ref, { cursor: page.next });
  });
}

/** The oldest pending re-matches (the sweep's list). */
export async function pendingRematches(
  limit: number,
): Promise<Array<{ companyId: string; groupId: string }>> {
  const snap = await collection().orderBy("at").select("companyId", "groupId").limit(limit).get();
  return snap.docs.map((d) => ({
    companyId: String(d.get("companyId")),
    groupId: String(d.get("groupId")),
  }));
}
