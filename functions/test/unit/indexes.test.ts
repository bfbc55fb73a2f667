import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EqualityField } from "../../src/repos/findings";
import { indexNeed } from "../../src/repos/rangeQuery";

/**
 * The emulator does not enforce composite indexes; production does. Every query shape the
 * repos build must have its index declared in firestore.indexes.json.
 */
interface DeclaredIndex {
  collectionGroup: string;
  queryScope: string;
  fields: Array<{ fieldPath: string; order?: string }>;
}
const declared: DeclaredIndex[] = JSON.parse(readFileSync(join(__dirname, "../../../firestore.indexes.json"), "utf8")).indexes;

const filtered: Array<[string, string, EqualityField]> = [];
for (const order of ["dateCreated", "lastEditedDate"] as const) {
  for (const eq of ["status", "system", "priority"] as const) filtered.push(["findings", order, eq]);
}
// Incidents listed by status; the KPI rollup's month counts of hidden incidents (hidden == true,
// a range on eventDate). Its other counts filter on equalities only, which single-field indexes serve.
const companyQueries: Array<[string, string, string]> = [
  ["incidents", "eventDate", "status"],
  ["incidents", "eventDate", "hidden"],
];

describe("firestore.indexes.json", () => {
  it("needs no composite index for a range on the order field alone (single-field indexes serve it)", () => {
    expect(indexNeed("findings", "dateCreated")).toBeNull();
    expect(indexNeed("findings", "lastEditedDate")).toBeNull();
  });

  it.each([...filtered, ...companyQueries])("declares the index for %s ordered by %s filtered on %s", (group, order, equality) => {
    const need = indexNeed(group, order, equality);
    expect(need).not.toBeNull();
    const match = declared.find(
      (i) => i.collectionGroup === need!.collectionGroup && i.queryScope === "COLLECTION" && JSON.stringify(i.fields) === JSON.stringify(need!.fields),
    );
    expect(match).toBeDefined();
  });
});
