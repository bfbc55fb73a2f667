// The delta endpoint's figures (npm run bench, or alone: npm run bench:delta): on a vessel of
// 10,000 findings whose change records exist (as the triggers leave them), the first copy through
// GET /v1/findings/delta, then 100 changes (70 edits, 20 hidden, 10 deleted; each followed by the
// trigger's handler, as the Functions runtime would run it) and the one delta after them:
// requests and time of each, through HTTP against an in-process server.
//   node scripts/emulators.mjs exec -- node scripts/benchDelta.mjs
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { createFindingsApp } = require("../lib/findings/app.js");
const { recordFindingChange } = require("../lib/services/changes.js");
const { seedCompany, seedKey, seedProject } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { FieldValue, Timestamp } = require("firebase-admin/firestore");

const TOTAL = 10_000;
const CHANGES = { edited: 70, hidden: 20, deleted: 10 };
const PAGE = 500;

async function seed() {
  const companyId = await seedCompany();
  const projectId = await seedProject(companyId);
  const { key } = await seedKey({
    api: "findings",
    companyId,
    projectId,
    rateLimits: { perMinute: 1_000_000, perDay: 1_000_000 },
  });
  const writer = firestore().bulkWriter();
  const base = Date.parse("2025-01-01T00:00:00Z");
  for (let i = 0; i < TOTAL; i++) {
    const id = `d${String(i).padStart(6, "0")}`;
    writer.set(
      firestore().doc(`projects/${projectId}/findings/${id}`),
      findingData(projectId, companyId, {
        findingNumber: i,
        dateCreated: Timestamp.fromMillis(base + i * 60_000),
      }),
    );
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

/** Pages one sync to its end: requests, time, rows and removals, the next delta_token. */
async function sync(base, key, deltaToken) {
  const t0 = process.hrtime.bigint();
  let requests = 0;
  let rows = 0;
  let removed = 0;
  let page = null;
  for (;;) {
    const qs = new URLSearchParams({ limit: String(PAGE) });
    if (deltaToken) qs.set("delta_token", deltaToken);
    if (page) qs.set("page_token", page);
    const res = await fetch(`${base}/v1/findings/delta?${qs}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    requests++;
    if (res.status !== 200) throw new Error(`delta failed: ${res.status} ${await res.text()}`);
    const body = await res.json();
    for (const row of body.data) {
      if (row.removed) removed++;
      else rows++;
    }
    page = body.next_page_token;
    if (!page) {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      return { requests, ms, rows, removed, deltaToken: body.delta_token };
    }
  }
}

export async function deltaFigures() {
  const { projectId, key } = await seed();
  const server = await new Promise((resolve) => {
    const s = createFindingsApp().listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const copy = await sync(base, key);
    const ids = Array.from({ length: TOTAL }, (_, i) => `d${String(i).padStart(6, "0")}`);
    let n = 0;
    for (const [change, count] of Object.entries(CHANGES)) {
      for (let i = 0; i < count; i++) {
        const id = ids[(n++ * 97) % TOTAL];
        const ref = firestore().doc(`projects/${projectId}/findings/${id}`);
        if (change === "deleted") await ref.delete();
        else
          await ref.set(change === "hidden" ? { hidden: true } : { title: `edit ${n}` }, {
            merge: true,
          });
        await recordFindingChange(projectId, id, true);
      }
    }
    const delta = await sync(base, key, copy.deltaToken);
    const expected = CHANGES.edited + CHANGES.hidden + CHANGES.deleted;
    if (delta.rows + delta.removed !== expected)
      throw new Error(
        `the delta returned ${delta.rows + delta.removed} rows, expected ${expected}`,
      );
    return [
      `delta: first copy         ${copy.rows} findings in ${copy.requests} requests, ${copy.ms.toFixed(0)} ms (target ${Math.ceil(TOTAL / PAGE)} + at most 1 requests: ${copy.requests <= Math.ceil(TOTAL / PAGE) + 1 ? "ok" : "MISSED"})`,
      `delta: after 100 changes  ${delta.rows} rows and ${delta.removed} removals in ${delta.requests} request(s), ${delta.ms.toFixed(0)} ms`,
    ];
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`Seeding ${TOTAL} findings and their change records…`);
  console.log((await deltaFigures()).join("\n"));
  process.exit(0);
}
