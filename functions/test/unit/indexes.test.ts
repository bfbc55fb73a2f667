import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  aggregationIndexNeed,
  esrsQueryShapes,
  indexNeed,
  indexNeedsOf,
  rollupAggregations,
  type IndexNeed,
} from "../support/indexNeeds";

/**
 * The emulator does not enforce composite indexes; production does, and a query without its
 * index fails there. Every query shape the code builds is listed here from the code itself (the
 * list endpoints' filters, and the aggregations the rollup and the ESRS report issue), and each
 * composite index it needs must be declared in firestore.indexes.json.
 */
interface DeclaredIndex {
  collectionGroup: string;
  queryScope: string;
  fields: Array<{ fieldPath: string; order?: string }>;
}
const indexFile = JSON.parse(
  readFileSync(join(__dirname, "../../../firestore.indexes.json"), "utf8"),
) as {
  indexes: DeclaredIndex[];
  fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }>;
};
const declared = indexFile.indexes;

const listQueries: Array<IndexNeed | null> = [
  ...["dateCreated", "lastEditedDate"].flatMap((order) =>
    ["status", "system", "priority"].map((eq) => indexNeed("findings", order, eq)),
  ),
  indexNeed("incidents", "eventDate", "status"),
  indexNeed("auditLogs", "at", "class", "desc"),
  // The console's usage figures: a key's `api.request` entries in a day (repos/keyRequestCounts).
  indexNeed("auditLogs", "at", ["action", "actor.id"]),
  // The roster (/v1/users): the company, optionally one exact filter, by creation.
  indexNeed("users", "createdAt", "companyId"),
  indexNeed("users", "createdAt", ["companyId", "email"]),
  indexNeed("users", "createdAt", ["companyId", "status"]),
  // SCIM paging: removed users that still have a `createdAt` (removed before it was moved aside),
  // moved out of the ordered roster.
  {
    collectionGroup: "users",
    fields: [
      { fieldPath: "companyId", order: "ASCENDING" },
      { fieldPath: "removedAt", order: "ASCENDING" },
      { fieldPath: "createdAt", order: "ASCENDING" },
    ],
  },
  // The re-match triggers: the company's users holding a department name, or a role value (`!=
  // null`).
  ...["unmatchedDepartment", "idpRole"].map((field) => ({
    collectionGroup: "users",
    fields: [
      { fieldPath: "companyId", order: "ASCENDING" as const },
      { fieldPath: field, order: "ASCENDING" as const },
    ],
  })),
];
const needs: IndexNeed[] = [
  ...listQueries.flatMap((need) => need ?? []),
  ...indexNeedsOf(rollupAggregations()),
  ...indexNeedsOf(esrsQueryShapes()),
];
const label = (need: IndexNeed) =>
  `${need.collectionGroup}(${need.fields.map((f) => `${f.fieldPath} ${f.order}`).join(", ")})`;

describe("firestore.indexes.json", () => {
  it("single-field indexes serve a range on the order field alone, and equality filters alone", () => {
    expect(indexNeed("findings", "dateCreated")).toBeNull();
    expect(
      aggregationIndexNeed({
        collection: "incidents",
        filters: [
          ["status", "==", "closed"],
          ["hidden", "==", true],
        ],
      }),
    ).toBeNull();
    expect(
      aggregationIndexNeed({ collection: "workedHours", filters: [], sum: "hours" }),
    ).toBeNull();
  });

  it("a sum needs its field in the index, after the filters", () => {
    expect(
      aggregationIndexNeed({
        collection: "workedHours",
        filters: [["source", "==", "app"]],
        sum: "hours",
      }),
    ).toEqual({
      collectionGroup: "workedHours",
      fields: [
        { fieldPath: "source", order: "ASCENDING" },
        { fieldPath: "hours", order: "ASCENDING" },
      ],
    });
  });

  it.each(needs.map((need) => [label(need), need] as const))("declares %s", (_label, need) => {
    const match = declared.find(
      (i) =>
        i.collectionGroup === need.collectionGroup &&
        i.queryScope === "COLLECTION" &&
        JSON.stringify(i.fields) === JSON.stringify(need.fields),
    );
    expect(match).toBeDefined();
  });

  it("the delta endpoints' change queries (a range and order on changedAt alone) need no composite index", () => {
    expect(indexNeed("findingChanges", "changedAt")).toBeNull();
    expect(indexNeed("incidentChanges", "changedAt")).toBeNull();
  });

  it.each(["auditLogs", "findingChanges", "incidentChanges"])(
    "has a TTL policy on %s.expireAt",
    (collectionGroup) => {
      expect(indexFile.fieldOverrides).toContainEqual(
        expect.objectContaining({ collectionGroup, fieldPath: "expireAt", ttl: true }),
      );
    },
  );
});
