import {
  FieldPath,
  FieldValue,
  Timestamp,
  type CollectionReference,
  type DocumentReference,
} from "firebase-admin/firestore";
import { REMOVAL_RECORD_DAYS } from "../config/constants";
import { firestore } from "../config/firebase";
import { DAY_MS } from "../lib/dates";
import { isHiddenValue } from "./stored";

/**
 * Change records (docs/firestore-data.md, "Change records"): one per finding and per incident,
 * written by the change triggers and read by the delta endpoints.
 */
export type ChangeState = "visible" | "hidden" | "deleted";

export interface ChangeRecord {
  id: string;
  changedAt: Timestamp;
  state: ChangeState;
  lastVisibleAt: Timestamp | null;
}

export type ChangeKind = "finding" | "incident";

const sourceOf = (kind: ChangeKind, parentId: string, id: string) =>
  kind === "finding"
    ? firestore().collection("projects").doc(parentId).collection("findings").doc(id)
    : firestore().collection("companies").doc(parentId).collection("incidents").doc(id);

const changesOf = (kind: ChangeKind, parentId: string): CollectionReference =>
  kind === "finding"
    ? firestore().collection("projects").doc(parentId).collection("findingChanges")
    : firestore().collection("companies").doc(parentId).collection("incidentChanges");

const STATES: readonly ChangeState[] = ["visible", "hidden", "deleted"];
const asTimestamp = (v: unknown) => (v instanceof Timestamp ? v : null);

function parseRecord(id: string, data: Record<string, unknown>): ChangeRecord | null {
  const changedAt = asTimestamp(data.changedAt);
  const state = STATES.find((s) => s === data.state);
  if (!changedAt || !state) return null;
  return { id, changedAt, state, lastVisibleAt: asTimestamp(data.lastVisibleAt) };
}

/**
 * Writes the record of one finding or incident from the document as it is now, whatever the
 * event said: deliveries come at least once and in any order, and the transaction commits after
 * the change that caused it, so the last write of a record always holds the final state.
 * `visibleBefore`: what the event saw before its change, used only when no record exists yet
 * (a document older than the triggers).
 */
export async function recordChange(
  kind: ChangeKind,
  parentId: string,
  id: string,
  visibleBefore: boolean,
): Promise<ChangeState> {
  const source = sourceOf(kind, parentId, id);
  const record: DocumentReference = changesOf(kind, parentId).doc(id);
  return firestore().runTransaction(async (tx) => {
    const [doc, prev] = await tx.getAll(source, record);
    const state: ChangeState = !doc.exists
      ? "deleted"
      : isHiddenValue(doc.get("hidden"))
        ? "hidden"
        : "visible";
    const previous = prev.exists ? parseRecord(prev.id, prev.data() ?? {}) : null;
    const wasVisible = previous ? previous.state === "visible" : visibleBefore;
    const now = FieldValue.serverTimestamp();
    tx.set(record, {
      changedAt: now,
      state,
      lastVisibleAt: state === "visible" || wasVisible ? now : (previous?.lastVisibleAt ?? null),
      expireAt:
        state === "visible"
          ? null
          : Timestamp.fromMillis(Date.now() + REMOVAL_RECORD_DAYS * DAY_MS),
    });
    return state;
  });
}

/**
 * Records changed at or after `since`, in change order (then id), after `after`; with the read
 * time of the query, which the caller may use as a watermark: every record written later has a
 * later `changedAt`. Served by the single-field index on `changedAt`.
 */
export async function changesSince(
  kind: ChangeKind,
  parentId: string,
  since: Timestamp,
  after: { changedAt: Timestamp; id: string } | undefined,
  limit: number,
): Promise<{ records: ChangeRecord[]; readTime: Timestamp }> {
  let query = changesOf(kind, parentId)
    .where("changedAt", ">=", since)
    .orderBy("changedAt")
    .orderBy(FieldPath.documentId());
  if (after) query = query.startAfter(after.changedAt, after.id);
  const snap = await query.limit(limit).get();
  return {
    records: snap.docs.flatMap((d) => parseRecord(d.id, d.data()) ?? []),
    readTime: snap.readTime,
  };
}

/** Firestore's current read time: a watermark earlier than any later commit. */
export async function readTimeNow(kind: ChangeKind, parentId: string): Promise<Timestamp> {
  return (await changesOf(kind, parentId).limit(1).get()).readTime;
}
