// bash scripts/bench.sh benchSync.mjs (npm run bench:sync; npm run bench prints it too): the
// first copy of a large vessel as an integrator makes it (issue 25). Seeds one vessel with
// 10,000 findings, 30,000 comments (3 a finding) and 20,000 file records (2 a finding), then
// copies it through HTTP from the server process of scripts/benchServer.mjs, 500 rows a page:
// the findings, every comment (GET /v1/comments) and every attachment (GET /v1/attachments,
// each row's link signed). Prints the requests and time of each part and of the whole (target:
// at most 125 requests). The emulator's times overstate production's.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { ms } from "./benchExport.mjs";
import { startServer } from "./benchServer.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedCompany, seedKey, seedProject } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { Timestamp } = require("firebase-admin/firestore");

const FINDINGS = 10_000;
const COMMENTS_EACH = 3;
const FILES_EACH = 2;
const PAGE = 500;
const TARGET_REQUESTS = 125;

async function seedLargeVessel() {
  const companyId = await seedCompany();
  const projectId = await seedProject(companyId);
  const key = await seedKey({
    api: "findings",
    companyId,
    projectId,
    rateLimits: { perMinute: 1_000_000, perDay: 1_000_000 },
  });
  const writer = firestore().bulkWriter();
  const base = Date.parse("2025-01-01T00:00:00Z");
  for (let i = 0; i < FINDINGS; i++) {
    const id = `s${String(i).padStart(6, "0")}`;
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
  }
  await writer.close();
  return { projectId, key: key.key };
}

/** Every page of one listing: its requests, rows and time. */
async function copyAll(base, key, path) {
  const t0 = process.hrtime.bigint();
  let token = null;
  let requests = 0;
  let rows = 0;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const res = await fetch(
      `${base}${path}${token ? `${sep}page_token=${encodeURIComponent(token)}` : ""}`,
      { headers: { Authorization: `Bearer ${key}` } },
    );
    requests++;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const body = await res.json();
    rows += body.data.length;
    token = body.next_page_token;
  } while (token);
  return { requests, rows, ms: ms(t0) };
}

/** The findings part of the first copy (to become GET /v1/findings/delta without a token). */
const copyFindings = (base, key) => copyAll(base, key, `/v1/findings?limit=${PAGE}`);

export async function firstCopyFigures() {
  const t0 = process.hrtime.bigint();
  const { key } = await seedLargeVessel();
  const seeded = ms(t0);
  const { worker, base } = await startServer("findings");
  try {
    const parts = [
      ["findings", await copyFindings(base, key), FINDINGS],
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
    return [
      `First copy of a vessel with ${FINDINGS} findings, ${FINDINGS * COMMENTS_EACH} comments, ${FINDINGS * FILES_EACH} files (${PAGE} a page; seeded in ${(seeded / 1000).toFixed(1)} s):`,
      ...parts.map(
        ([name, p, expected]) =>
          `  ${name.padEnd(12)} ${String(p.requests).padStart(4)} requests  ${String(p.rows).padStart(6)} rows${p.rows === expected ? "" : ` (EXPECTED ${expected})`}  ${(p.ms / 1000).toFixed(1)} s (${(p.ms / p.requests).toFixed(0)} ms a page)`,
      ),
      `  total        ${String(requests).padStart(4)} requests (target <= ${TARGET_REQUESTS}${requests <= TARGET_REQUESTS ? ", met" : ", MISSED"})  ${(time / 1000).toFixed(1)} s`,
    ];
  } finally {
    worker.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log((await firstCopyFigures()).join("\n"));
  process.exit(0);
}
