import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

/**
 * Merges this repository's firestore.indexes.json into the app's. An index deploy replaces the
 * project's whole set (docs/operations.md, "Indexes"), so the APIs' indexes and field overrides
 * (including the `auditLogs.expireAt` TTL policy) must live in the file the app deploys.
 *
 * An index is the same index when its collection group, scope and fields (paths and orders or
 * array configs) match; a field override is the same when its collection group and field path
 * match, and conflicts when the two files configure that field differently.
 */
export interface IndexesFile {
  indexes?: Array<Record<string, unknown>>;
  fieldOverrides?: Array<Record<string, unknown>>;
  [other: string]: unknown;
}

export interface MergeResult {
  merged: IndexesFile;
  /** Already in the app's file (or twice in one file): kept once. */
  duplicates: string[];
  /** A field configured differently by the two files: nothing is merged until it is resolved. */
  conflicts: string[];
  /** Ours, added to the app's file. */
  added: string[];
}

/** A stable form of a JSON value: object keys sorted, so key order never makes two differ. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

function indexLabel(index: Record<string, unknown>): string {
  const fields = (index.fields as Array<Record<string, unknown>> | undefined) ?? [];
  const parts = fields.map((f) => `${String(f.fieldPath)} ${String(f.order ?? f.arrayConfig)}`);
  return (
    `index ${String(index.collectionGroup)}(${parts.join(", ")}) ` +
    `${canonical(index.queryScope ?? "COLLECTION")}`
  );
}

/** Identity of an index: its defaults spelled out, so an omitted `queryScope` equals COLLECTION. */
const indexKey = (index: Record<string, unknown>) =>
  canonical({ ...index, queryScope: index.queryScope ?? "COLLECTION" });

const overrideKey = (o: Record<string, unknown>) =>
  `${String(o.collectionGroup)}.${String(o.fieldPath)}`;

/** What a field override configures, with the defaults firebase-tools assumes spelled out. */
const overrideConfig = (o: Record<string, unknown>) =>
  canonical({ ttl: o.ttl ?? false, indexes: o.indexes ?? [] });

export function mergeIndexes(app: IndexesFile, ours: IndexesFile): MergeResult {
  const duplicates: string[] = [];
  const conflicts: string[] = [];
  const added: string[] = [];

  const indexes: Array<Record<string, unknown>> = [];
  const seenIndexes = new Set<string>();
  const addIndex = (index: Record<string, unknown>, fromUs: boolean) => {
    const key = indexKey(index);
    if (seenIndexes.has(key)) {
      duplicates.push(indexLabel(index));
      return;
    }
    seenIndexes.add(key);
    indexes.push(index);
    if (fromUs) added.push(indexLabel(index));
  };
  for (const index of app.indexes ?? []) addIndex(index, false);
  for (const index of ours.indexes ?? []) addIndex(index, true);

  const overrides: Array<Record<string, unknown>> = [];
  const seenOverrides = new Map<string, string>();
  const addOverride = (o: Record<string, unknown>, fromUs: boolean) => {
    const key = overrideKey(o);
    const label = `field override ${key}`;
    const config = overrideConfig(o);
    const known = seenOverrides.get(key);
    if (known === undefined) {
      seenOverrides.set(key, config);
      overrides.push(o);
      if (fromUs) added.push(label);
    } else if (known === config) duplicates.push(label);
    else conflicts.push(`${label}: the app's file has ${known}, ours ${config}`);
  };
  for (const o of app.fieldOverrides ?? []) addOverride(o, false);
  for (const o of ours.fieldOverrides ?? []) addOverride(o, true);

  return {
    merged: { ...app, indexes, fieldOverrides: overrides },
    duplicates,
    conflicts,
    added,
  };
}

const usage = `Usage: node lib/tools/mergeIndexes.js APP_INDEXES_JSON [--out FILE] [--ours FILE]

Merges this repository's firestore.indexes.json into the app's file (the file the app
deploys with \`firebase deploy --only firestore:indexes\`). Prints the merged file on stdout,
or writes it to --out (which may be APP_INDEXES_JSON itself). Reports duplicates and additions
on stderr; on a conflict (a field configured differently by the two files) it writes nothing
and exits 1. --ours defaults to this repository's firestore.indexes.json.`;

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { out: { type: "string" }, ours: { type: "string" }, help: { type: "boolean" } },
  });
  if (values.help || positionals.length !== 1) {
    process.stderr.write(`${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as IndexesFile;
  const ours = read(values.ours ?? join(__dirname, "..", "..", "..", "firestore.indexes.json"));
  const result = mergeIndexes(read(positionals[0]), ours);
  for (const d of result.duplicates) process.stderr.write(`duplicate (kept once): ${d}\n`);
  for (const a of result.added) process.stderr.write(`added: ${a}\n`);
  if (result.conflicts.length) {
    for (const c of result.conflicts) process.stderr.write(`CONFLICT: ${c}\n`);
    process.stderr.write("Nothing written: resolve the conflicts in the app's file first.\n");
    process.exit(1);
  }
  const text = `${JSON.stringify(result.merged, null, 2)}\n`;
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
}

if (require.main === module) main();
