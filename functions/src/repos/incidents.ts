import { firestore } from "../config/firebase";
import { rangeQuery, streamRows, type Cursor, type RangeQuery } from "./rangeQuery";
import { flag, hiddenFlag, nullableNumber, nullableString, parseStored, text, timestamp, type Stored } from "./stored";

/** `companies/{companyId}/incidents/{incidentId}` (docs/firestore-data.md). `reportedByEmail` is private: never read. */
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
  daysLost: nullableNumber,
  locationId: nullableString,
  departmentId: nullableString,
  reportedBy: nullableString,
  reportedByName: nullableString,
  hidden: hiddenFlag,
};
export type IncidentDoc = Stored<typeof incidentShape> & { id: string };

export const incidentsOf = (companyId: string) => firestore().collection("companies").doc(companyId).collection("incidents");

/** One page by event date, then id; `convert` sees hidden incidents too (they still move the cursor). */
export async function queryIncidents<R>(companyId: string, q: RangeQuery<"status">, convert: (incident: IncidentDoc) => R): Promise<Array<{ row: R; cursor: Cursor }>> {
  return streamRows(await rangeQuery(incidentsOf(companyId), "eventDate", q), "eventDate", (doc) =>
    convert({ id: doc.id, ...parseStored(incidentShape, doc.ref.path, doc.data()) }),
  );
}
