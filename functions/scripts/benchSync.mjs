// bash scripts/bench.sh benchSync.mjs (npm run bench:sync; npm run bench prints it too): a mirror
// of a large vessel as an integrator keeps it. Seeds one vessel with 10,000 findings, 30,000
// comments (3 a finding), 20,000 file records (2 a finding) and the findings' change records (as
// the triggers leave them), then through HTTP from the server process of scripts/benchServer.mjs,
// 500 rows a page:
// - the first copy: the findings (GET /v1/findings/delta without a token), every comment
//   (GET /v1/comments) and every attachment (GET /v1/attachments, each row's link signed), with
//   the requests and time of each part and of the whole (target: at most 125 requests);
// - one delta after 100 changes (70 edits, 20 hidden, 10 deleted; each followed by the change
//   trigger's handler, as the Functions runtime would run it).
// The emulator's times overstate production's.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { startServer } from "./benchServer.mjs";
import { ms } from "./benchStats.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedVessel, UNLIMITED } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { recordFindingChange } = require("../lib/services/changes.js");
const { FieldValue, Timestamp } = require("firebase-admin/firestore");

const FINDINGS = 10_000;
const COMMENTS_EACH = 3;
const FILES_EACH = 2;
const PAGE = 500;
const TARGET_REQUESTS = 125;
const CHANGES = { edited: 70, hidden: 20, deleted: 10 };
const findingId = (i) => `s${String(i).padStart(6, "0")}`;

async function seedLargeVessel() {
  const { companyId, projectId, key } = await seedVessel(UNLIMITED);
  const writer = firestore().bulkWriter();
  const base = Date.parse("2025-01-01T00:00:00Z");
  for (let i = 0; i < FINDINGS; i++) {
    const id = findingId(i);
    const finding = `projects/${projectId}/findings/${id}`;
    const created = Timestamp.fromMillis(base + i * 60_000);
    writer.set(
      firestore().doc(finding),
      findingData(projectId, companyId, { findingNumber: i, dateCreated: created }),
    );
    for (let c = 0; c < COMMENTS_EACH; c++)
      writer.set(firestore().doc(`${finding}/comments/c${c}`), {
        text: `Comment ${c} on finding ${i}`,
        createdAt: Timestamp.fromMillis(created.toMillis() + (c + 1) * 1000),
        authorId: "u2",
        authorName: "Commenter",
        systemTriggered: false,
      });
    for (let f = 0; f < FILES_EACH; f++)
      writer.set(firestore().doc(`${finding}/files/f${f}`), {
        title: `Photo ${f}`,
        fileName: `photo-${f}.jpg`,
        contentKind: "image",
        customIndex: f,
        uploadedAt: created,
        storageRef: `projects/${projectId}/findings/${id}/photo-${f}.jpg`,
        deleted: false,
      });
    const now = FieldValue.serverTimestamp();
    writer.set(firestore().doc(`projects/${projectId}/findingChanges/${id}`), {
      changedAt: now,
      state: "visible",
      lastVisibleAt: now,
      expireAt: null,
    });
  }
  await writer.close();
  return { projectId, key };
}

/** Every page of one listing: its requests, rows, removals, time and last delta_token. */
async function copyAll(base, key, path) {
  const t0 = process.hrtime.bigint();
  let token = null;
  let requests = 0;
  let rows = 0;
  let removed = 0;
  let deltaToken = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const res = await fetch(
      `${base}${path}${token ? `${sep}page_token=${encodeURIComponent(token)}` : ""}`,
      { headers: { Authorization: `Bearer ${key}` } },
    );
    requests++;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    removed += body.data.filter((row) => row.removed).length;
    rows += body.data.length;
    token = body.next_page_token;
    deltaToken = body.delta_token ?? null;
  } while (token);
  return { requests, rows: rows - removed, removed, deltaToken, ms: ms(t0) };
}

/** 70 edits, 20 hidden, 10 deleted, each followed by what its trigger runs. */
async function change(projectId) {
  let n = 0;
  for (const [kind, count] of Object.entries(CHANGES))
    for (let i = 0; i < count; i++) {
      const id = findingId((n++ * 97) % FINDINGS);
      const ref = firestore().doc(`projects/${projectId}/findings/${id}`);
      const before = await ref.get();
      if (kind === "deleted") await ref.delete();
      else
        await ref.set(kind === "hidden" ? { hidden: true } : { title: `edit ${n}` }, {
          merge: true,
        });
      await recordFindingChange(projectId, id, before);
    }
  return n;
}

export async function firstCopyFigures() {
  const t0 = process.hrtime.bigint();
  const { projectId, key } = await seedLargeVessel();
  const seeded = ms(t0);
  const { worker, base } = await startServer("findings");
  try {
    const parts = [
      ["findings", await copyAll(base, key, `/v1/findings/delta?limit=${PAGE}`), FINDINGS],
      [
        "comments",
        await copyAll(base, key, `/v1/comments?limit=${PAGE}`),
        FINDINGS * COMMENTS_EACH,
      ],
      [
        "attachments",
        await copyAll(base, key, `/v1/attachments?limit=${PAGE}`),
        FINDINGS * FILES_EACH,
      ],
    ];
    const requests = parts.reduce((n, [, p]) => n + p.requests, 0);
    const time = parts.reduce((n, [, p]) => n + p.ms, 0);
    const changes = await change(projectId);
    const token = encodeURIComponent(parts[0][1].deltaToken);
    const delta = await copyAll(base, key, `/v1/findings/delta?limit=${PAGE}&delta_token=${token}`);
    if (delta.rows + delta.removed !== changes)
      throw new Error(`the delta returned ${delta.rows + delta.removed} rows, expected ${changes}`);
    return [
      `First copy of a vessel with ${FINDINGS} findings, ${FINDINGS * COMMENTS_EACH} comments, ${FINDINGS * FILES_EACH} files (${PAGE} a page; seeded in ${(seeded / 1000).toFixed(1)} s):`,
      ...parts.map(
        ([name, p, expected]) =>
          `  ${name.padEnd(12)} ${String(p.requests).padStart(4)} requests  ${String(p.rows).padStart(6)} rows${p.rows === expected ? "" : ` (EXPECTED ${expected})`}  ${(p.ms / 1000).toFixed(1)} s (${(p.ms / p.requests).toFixed(0)} ms a page)`,
      ),
      `  total        ${String(requests).padStart(4)} requests (target <= ${TARGET_REQUESTS}${requests <= TARGET_REQUESTS ? ", met" : ", MISSED"})  ${(time / 1000).toFixed(1)} s`,
      `One delta after ${changes} changes: ${delta.rows} rows and ${delta.removed} removals in ${delta.requests} request(s), ${delta.ms.toFixed(0)} ms`,
    ];
  } finally {
    worker.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log((await firstCopyFigures()).join("\n"));
  process.exit(0);
}
