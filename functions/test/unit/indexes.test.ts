import { readFileSync } from "node:fs";
import { join } from "node:path";
import { indexNeed, type EqualityField, type OrderField } from "../../src/repos/findings";

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

const shapes: Array<[string, OrderField, EqualityField | undefined]> = [];
for (const order of ["dateCreated", "lastEditedDate"] as const) {
  for (const eq of [undefined, "status", "system", "priority"] as const) shapes.push(["findings", order, eq]);
}
shapes.push(["comments", "createdAt", undefined]);

describe("firestore.indexes.json", () => {
  it.each(shapes)("declares the index for %s ordered by %s filtered on %s", (group, order, equality) => {
    const need = indexNeed(group, order, equality);
    if (!need) return expect(equality).toBeUndefined();
    const match = declared.find(
      (i) => i.collectionGroup === need.collectionGroup && i.queryScope === "COLLECTION" && JSON.stringify(i.fields) === JSON.stringify(need.fields),
    );
    expect(match).toBeDefined();
  });
});
