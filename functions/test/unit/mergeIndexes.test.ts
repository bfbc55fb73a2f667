import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { mergeIndexes, type IndexesFile } from "../../src/tools/mergeIndexes";

const oursFile = join(__dirname, "../../../firestore.indexes.json");

/** The command as the build emits it (CommonJS), without building the package. */
function compiled(dir: string): string {
  const source = readFileSync(join(__dirname, "../../src/tools/mergeIndexes.ts"), "utf8");
  const file = join(dir, "mergeIndexes.js");
  writeFileSync(
    file,
    ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText,
  );
  return file;
}

const ours: IndexesFile = JSON.parse(readFileSync(oursFile, "utf8"));

const appIndex = {
  collectionGroup: "findings",
  queryScope: "COLLECTION",
  fields: [
    { fieldPath: "assignee", order: "ASCENDING" },
    { fieldPath: "dueDate", order: "DESCENDING" },
  ],
};
const appOverride = {
  collectionGroup: "chats",
  fieldPath: "body",
  indexes: [],
};

describe("merging our indexes into the app's firestore.indexes.json", () => {
  it("keeps every index and field override of the app's file and adds all of ours", () => {
    const { merged, conflicts, duplicates, added } = mergeIndexes(
      { indexes: [appIndex], fieldOverrides: [appOverride] },
      ours,
    );
    expect(conflicts).toEqual([]);
    expect(duplicates).toEqual([]);
    expect(merged.indexes).toEqual([appIndex, ...(ours.indexes ?? [])]);
    expect(merged.fieldOverrides).toEqual([appOverride, ...(ours.fieldOverrides ?? [])]);
    expect(merged.fieldOverrides).toContainEqual(
      expect.objectContaining({ collectionGroup: "auditLogs", fieldPath: "expireAt", ttl: true }),
    );
    expect(added).toHaveLength((ours.indexes?.length ?? 0) + (ours.fieldOverrides?.length ?? 0));
  });

  it("is idempotent: merging twice detects every entry as a duplicate and changes nothing", () => {
    const once = mergeIndexes({ indexes: [appIndex] }, ours).merged;
    const twice = mergeIndexes(once, ours);
    expect(twice.merged).toEqual(once);
    expect(twice.added).toEqual([]);
    expect(twice.duplicates).toHaveLength(
      (ours.indexes?.length ?? 0) + (ours.fieldOverrides?.length ?? 0),
    );
  });

  it("sees the same index written with other key order or an implied queryScope as a duplicate", () => {
    const [first] = ours.indexes ?? [];
    const reordered = {
      fields: (first.fields as Array<Record<string, string>>).map((f) => ({
        order: f.order,
        fieldPath: f.fieldPath,
      })),
      collectionGroup: first.collectionGroup,
    };
    const { merged, duplicates } = mergeIndexes({ indexes: [reordered] }, ours);
    expect(duplicates).toHaveLength(1);
    expect(merged.indexes).toHaveLength(ours.indexes?.length ?? 0);
  });

  it("reports a field the two files configure differently (the app's file turns our TTL off)", () => {
    const { conflicts } = mergeIndexes(
      { fieldOverrides: [{ collectionGroup: "auditLogs", fieldPath: "expireAt", indexes: [] }] },
      ours,
    );
    expect(conflicts).toEqual([expect.stringContaining("field override auditLogs.expireAt")]);
  });

  it("as a command: writes the merged file, and on a conflict writes nothing and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-indexes-"));
    const app = join(dir, "app.json");
    const out = join(dir, "merged.json");
    writeFileSync(app, JSON.stringify({ indexes: [appIndex], fieldOverrides: [appOverride] }));
    const script = compiled(dir);
    execFileSync(process.execPath, [script, app, "--ours", oursFile, "--out", out], {
      stdio: "pipe",
    });
    const merged = JSON.parse(readFileSync(out, "utf8")) as IndexesFile;
    expect(merged.indexes).toContainEqual(appIndex);
    expect(merged.fieldOverrides).toContainEqual(expect.objectContaining({ ttl: true }));

    writeFileSync(
      app,
      JSON.stringify({
        fieldOverrides: [{ collectionGroup: "auditLogs", fieldPath: "expireAt", indexes: [] }],
      }),
    );
    const refused = spawnSync(process.execPath, [script, app, "--ours", oursFile]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.toString()).toContain("CONFLICT: field override auditLogs.expireAt");
    expect(refused.stdout.toString()).toBe("");
  });
});
