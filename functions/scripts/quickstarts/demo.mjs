// What the quickstart test does beside the quickstarts: reads their SQLite copies, changes the
// demo data as the app would (through Firestore, so the triggers record the changes), and puts
// a stale delta token where a quickstart keeps its own.
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const LIB = join(resolve(dirname(fileURLToPath(import.meta.url)), "..", ".."), "lib");
const COMPANY = "demo-nordic-shipping";
const VESSEL = "demo-vessel-a";

/** A quickstart's findings copy, read-only. */
export function demoStore(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  const all = (sql, ...args) => db.prepare(sql).all(...args);
  const one = (sql, ...args) => db.prepare(sql).get(...args);
  return {
    count: (table) => Number(one(`SELECT count(*) AS n FROM ${table}`).n),
    keys: () =>
      JSON.stringify([
        all("SELECT id FROM findings ORDER BY id").map((r) => r.id),
        all("SELECT finding_id, id FROM comments ORDER BY 1, 2").map(
          (r) => `${r.finding_id}/${r.id}`,
        ),
        all("SELECT finding_id, attachment_id FROM attachments ORDER BY 1, 2").map(
          (r) => `${r.finding_id}/${r.attachment_id}`,
        ),
      ]),
    pendingFiles: () =>
      Number(
        one(`SELECT count(*) AS n FROM attachments WHERE file IS NULL
             AND (download_error IS NULL OR download_error = 'signing_failed')`).n,
      ),
    holds: (id) => Boolean(one("SELECT 1 AS x FROM findings WHERE id = ?", id)),
    title: (id) => one("SELECT title FROM findings WHERE id = ?", id)?.title,
    withFiles: () =>
      all("SELECT DISTINCT finding_id FROM attachments WHERE file IS NOT NULL ORDER BY 1").map(
        (r) => r.finding_id,
      ),
    firstIncident: () => one("SELECT id FROM incidents ORDER BY id")?.id,
    deltaToken: () => one("SELECT value FROM sync_state WHERE name = 'delta_token'")?.value,
    summary: () =>
      ["findings", "comments", "attachments"]
        .map((t) => `${one(`SELECT count(*) AS n FROM ${t}`).n} ${t}`)
        .join(", "),
  };
}

function firestore() {
  const { initializeApp, getApps } = require("firebase-admin/app");
  const { getFirestore } = require("firebase-admin/firestore");
  return getFirestore(getApps()[0] ?? initializeApp({ projectId: "demo-safety-apis" }));
}

/** Polls `url` (a delta with the copy's token) until `seen(page)` or 60 s. */
async function until(url, key, seen) {
  for (let i = 0; i < 60; i++) {
    const page = await fetch(url, { headers: { Authorization: `Bearer ${key}` } }).then((r) =>
      r.json(),
    );
    if (seen(page)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the change records never showed at ${url}`);
}

/**
 * Hides one finding with files, deletes another, edits a third, hides an incident; waits until
 * the delta endpoints show them. Returns the ids and the new title.
 */
export async function mutateDemo(base, keys, copies) {
  const [hidden, deleted] = copies.findings.withFiles();
  const edited = copies.findings.withFiles().at(-1);
  const incident = copies.company.firstIncident();
  const title = `Edited in the app at ${new Date().toISOString()}`;
  const db = firestore();
  const finding = (id) => db.doc(`projects/${VESSEL}/findings/${id}`);
  await finding(hidden).update({ hidden: true });
  await finding(deleted).delete();
  await finding(edited).update({ title });
  await db.doc(`companies/${COMPANY}/incidents/${incident}`).update({ hidden: true });
  const delta = (api, path, copy) =>
    `${base[api]}/v1/${path}/delta?limit=500&delta_token=${encodeURIComponent(copy.deltaToken())}`;
  await until(
    delta("findings", "findings", copies.findings),
    keys.vessel,
    (p) => p.data?.filter((r) => r.removed).length === 2,
  );
  await until(delta("company", "incidents", copies.company), keys.read, (p) =>
    p.data?.some((r) => r.removed),
  );
  return { hidden, deleted, edited, title, incident };
}

/**
 * A delta token the API no longer takes, stored where the quickstart keeps its own: one older
 * than the 30 days of change records (410), or one damaged in storage (400).
 */
export function stampToken(file, job, expired) {
  const { encodeToken, scopeDigest } = require(join(LIB, "lib", "pageToken.js"));
  const { pageTokenSecrets } = require(join(LIB, "config", "params.js"));
  const scope = scopeDigest(
    job === "findings"
      ? { operation: "findingsDelta", tenant: VESSEL, delta: true }
      : { operation: "incidentsDelta", tenant: COMPANY, delta: true },
  );
  const since = Math.floor(Date.now() / 1000) - (expired ? 31 * 86_400 : 3600);
  const token = encodeToken(pageTokenSecrets(), scope, [since, 0]);
  // Damaged: cut short in storage (a token of a retired secret answers 410 like an old one).
  const db = new DatabaseSync(file);
  db.prepare("UPDATE sync_state SET value = ? WHERE name = 'delta_token'").run(
    expired ? token : token.slice(0, -6),
  );
  db.close();
}
