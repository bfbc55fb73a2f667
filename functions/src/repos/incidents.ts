import { Timestamp, type Query } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import type { Filter } from "./aggregates";
import { rangeQuery, streamRows, type Cursor, type RangeQuery } from "./rangeQuery";
import {
  flag,
  hiddenFlag,
  isHiddenValue,
  nonNegativeInteger,
  nullableString,
  parseSnapshot,
  text,
  timestamp,
  type Stored,
} from "./stored";

/**
 * `companies/{companyId}/incidents/{incidentId}` (docs/firestore-data.md). `reportedByEmail` is
 * private: never read.
 */
export const incidentShape = {
  reference: text,
  title: text,
  description: text,
  eventDate: timestamp,
  reportedAt: timestamp,
  status: nullableString,
  type: nullableString,
  workRelated: flag,
  recordable: flag,
  fatality: flag,
  personType: nullableString,
  daysLost: nonNegativeInteger,
  dateOfDeath: timestamp,
  locationId: nullableString,
  departmentId: nullableString,
  reportedBy: nullableString,
  reportedByName: nullableString,
  hidden: hiddenFlag,
};
export type IncidentDoc = Stored<typeof incidentShape> & { id: string };

const incidentsOf = (companyId: string) =>
  firestore().collection("companies").doc(companyId).collection("incidents");

/**
 * One page by event date, then id; `convert` sees hidden incidents too (they still move the
 * cursor).
 */
export async function queryIncidents<R>(
  companyId: string,
  q: RangeQuery<"status">,
  convert: (incident: IncidentDoc) => R,
): Promise<Array<{ row: R; cursor: Cursor }>> {
  return streamRows(await rangeQuery(incidentsOf(companyId), "eventDate", q), "eventDate", (doc) =>
    convert(parseSnapshot(incidentShape, doc)),
  );
}

/**
 * Every hidden incident, its fields as stored (Timestamps as Dates), so that aggregations over
 * all incidents can subtract exactly the hidden ones that match their filters. No aggregation
 * can: `hidden == true` misses `"true"`, and `hidden != true` drops documents without the field.
 * Cost: one query and one read per hidden incident (few), whatever the number of incidents.
 */
export async function readHiddenIncidents(
  companyId: string,
): Promise<Array<Record<string, unknown>>> {
  const snap = await incidentsOf(companyId).where("hidden", "!=", false).get();
  return snap.docs
    .map((doc) =>
      Object.fromEntries(
        Object.entries(doc.data()).map(([k, v]) => [k, v instanceof Timestamp ? v.toDate() : v]),
      ),
    )
    .filter((data) => isHiddenValue(data.hidden));
}

/**
 * The incidents matching any of the filter sets (each one query), each once, read as the shape
 * reads them: the few documents an ESRS figure can be made of. Cost: one query per set and one
 * read per matching document.
 */
export async function incidentsMatchingAny(
  companyId: string,
  filterSets: readonly Filter[][],
): Promise<IncidentDoc[]> {
  const snaps = await Promise.all(
    filterSets.map((filters) =>
      filters
        .reduce<Query>((q, [field, op, value]) => q.where(field, op, value), incidentsOf(companyId))
        .get(),
    ),
  );
  const byId = new Map<string, IncidentDoc>();
  for (const snap of snaps)
    for (const doc of snap.docs)
      if (!byId.has(doc.id)) byId.set(doc.id, parseSnapshot(incidentShape, doc));
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The incidents with these ids, as stored now (hidden ones too); an absent id is a deleted
 * incident.
 */
export async function incidentsByIds(
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, IncidentDoc>> {
  if (!ids.length) return new Map();
  const snaps = await firestore().getAll(...ids.map((id) => incidentsOf(companyId).doc(id)));
  return new Map(snaps.filter((s) => s.exists).map((s) => [s.id, parseSnapshot(incidentShape, s)]));
}
