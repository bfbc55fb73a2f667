// npm run bench: figures for the findings export (a script, not a timed test). Run under
//   node scripts/emulators.mjs exec -- node scripts/bench.mjs
// Prints: full-export time through HTTP vs the same pages read raw with the Admin SDK (target
// ratio <= 1.3), the export's request count (target ceil(10000/500) + at most 1), p50/p95 of
// GET /v1/project next to a raw document read, and the peak RSS of a server process serving
// pages of 500 findings with 50 checklist items each, one at a time and CONCURRENT at once (the
// figures behind the functions' memory and concurrency settings in src/config/runtime.ts).
//   node scripts/bench.mjs --memory   only the memory figures
import { fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedCompany, seedKey, seedProject } = require("../lib/testing/builders.js");
const { findingData } = require("../lib/testing/findingBuilders.js");
const { createFindingsApp } = require("../lib/findings/app.js");
const { FieldPath, Timestamp } = require("firebase-admin/firestore");

const TOTAL = 10_000;
const PAGE = 500;
const ROUNDS = 5;
/** Simultaneous heavy pages measured; 16 is the `concurrency` set in src/config/runtime.ts. */
const CONCURRENT = [1, 8, 16, 24];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function seedVessel(count, checklistItems, hiddenEvery) {
  const companyId = await seedCompany();
  const projectId = await seedProject(companyId);
  const key = await seedKey({ api: "findings", companyId, projectId, rateLimits: { perMinute: 1_000_000, perDay: 1_000_000 } });
  const writer = firestore().bulkWriter();
  const base = Date.parse("2025-01-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const checklist = Array.from({ length: checklistItems }, (_, j) => ({
      title: `Action ${j + 1} of finding ${i}`, done: j % 2 === 0, dateCreated: Timestamp.fromMillis(base + i * 60_000),
      dateClosed: null, createdBy: "u1", createdByName: "Creator", createdByEmail: "c@private.example",
    }));
    writer.set(firestore().doc(`projects/${projectId}/findings/b${String(i).padStart(6, "0")}`),
      findingData(projectId, companyId, { findingNumber: i, dateCreated: Timestamp.fromMillis(base + i * 60_000), checklist, ...(hiddenEvery && i % hiddenEvery === 0 ? { hidden: true } : {}) }));
  }
  await writer.close();
  return { companyId, projectId, key: key.key };
}

function serve(app) {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${server.address().port}` }));
  });
}

async function exportViaHttp(base, key) {
  let token = null;
  let requests = 0;
  let findings = 0;
  const t0 = process.hrtime.bigint();
  do {
    const res = await fetch(`${base}/v1/findings?limit=${PAGE}${token ? `&page_token=${encodeURIComponent(token)}` : ""}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
    const body = await res.json();
    requests++;
    findings += body.data.length;
    token = body.next_page_token;
  } while (token);
  return { ms: ms(t0), requests, findings };
}

async function exportRaw(projectId) {
  const coll = firestore().collection(`projects/${projectId}/findings`);
  let after = null;
  let findings = 0;
  const t0 = process.hrtime.bigint();
  for (;;) {
    let q = coll.orderBy("dateCreated").orderBy(FieldPath.documentId()).limit(PAGE + 1);
    if (after) q = q.startAfter(after.get("dateCreated"), after.id);
    const snap = await q.get();
    const page = snap.docs.slice(0, PAGE);
    // Materialise every document, as any reader of the data would.
    findings += page.map((d) => d.data()).filter((data) => !data.hidden).length;
    if (snap.docs.length <= PAGE) break;
    after = page[page.length - 1];
  }
  return { ms: ms(t0), findings };
}

async function latency(base, key, projectId, n = 200) {
  const api = [];
  const raw = [];
  for (let i = 0; i < n; i++) {
    let t0 = process.hrtime.bigint();
    const res = await fetch(`${base}/v1/project`, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    api.push(ms(t0));
    t0 = process.hrtime.bigint();
    await firestore().doc(`projects/${projectId}`).get();
    raw.push(ms(t0));
  }
  return { api, raw };
}

/** Child: serves the app and reports its peak RSS after one big page. */
async function child() {
  const { base } = await serve(createFindingsApp());
  process.send({ base });
  process.on("message", (m) => (m === "exit" ? process.exit(0) : process.send({ maxRssMiB: process.resourceUsage().maxRSS / 1024 })));
}

async function startServer() {
  const worker = fork(fileURLToPath(import.meta.url), ["child"], { env: process.env });
  const { base } = await new Promise((r) => worker.once("message", r));
  return { worker, base };
}

/** Peak RSS of a fresh server process answering `n` pages of 500 x 50 at once. */
async function peakRss(heavy, n) {
  const { worker, base } = await startServer();
  const rss = () => new Promise((r) => { worker.once("message", r); worker.send("rss"); });
  const idle = await rss();
  const responses = await Promise.all(
    Array.from({ length: n }, () => fetch(`${base}/v1/findings?limit=500`, { headers: { Authorization: `Bearer ${heavy.key}` } }).then(async (res) => ({ status: res.status, bytes: (await res.arrayBuffer()).byteLength }))),
  );
  const peak = await rss();
  worker.kill();
  const ok = responses.every((r) => r.status === 200);
  return `peak RSS, ${String(n).padStart(2)} x (500 x 50)  ${peak.maxRssMiB.toFixed(0)} MiB (idle server ${idle.maxRssMiB.toFixed(0)} MiB, ${(responses[0].bytes / 1048576).toFixed(1)} MiB per response${ok ? "" : ", SOME FAILED"})`;
}

async function memoryFigures() {
  console.log("Seeding 500 findings with 50 checklist items each…");
  const heavy = await seedVessel(500, 50, 0);
  const lines = [];
  for (const n of CONCURRENT) lines.push(await peakRss(heavy, n));
  return lines;
}

async function main() {
  if (process.argv.includes("--memory")) {
    console.log(`\n${(await memoryFigures()).join("\n")}`);
    process.exit(0);
  }
  console.log(`Seeding ${TOTAL} findings (5 checklist items each, 1 in 20 hidden)…`);
  const big = await seedVessel(TOTAL, 5, 20);
  // The API runs in a process of its own, as in production: the client's JSON parsing must not
  // compete with the server on one thread.
  const apiServer = await startServer();
  const base = apiServer.base;
  await exportRaw(big.projectId); // warm the emulator's caches for both runs alike
  // Alternate the two, several rounds, and compare medians: the emulator's timings drift.
  const runs = { http: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.http.push(await exportViaHttp(base, big.key));
    runs.raw.push(await exportRaw(big.projectId));
  }
  const median = (xs) => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)];
  const http = median(runs.http);
  const raw = median(runs.raw);
  const { api, raw: rawRead } = await latency(base, big.key, big.projectId);
  apiServer.worker.kill();

  const expectedRequests = Math.ceil(TOTAL / PAGE);
  const lines = [
    `full export via HTTP     ${http.ms.toFixed(0)} ms (median of ${ROUNDS}: ${runs.http.map((r) => r.ms.toFixed(0)).join(", ")}), ${http.findings} findings in ${http.requests} requests (target ${expectedRequests} + at most 1: ${http.requests <= expectedRequests + 1 ? "ok" : "MISSED"})`,
    `same pages raw (Admin)   ${raw.ms.toFixed(0)} ms (median of ${ROUNDS}: ${runs.raw.map((r) => r.ms.toFixed(0)).join(", ")}), ${raw.findings} findings`,
    `ratio HTTP / raw         ${(http.ms / raw.ms).toFixed(2)} (target <= 1.3: ${http.ms / raw.ms <= 1.3 ? "ok" : "MISSED"})`,
    `GET /v1/project          p50 ${pct(api, 50).toFixed(1)} ms, p95 ${pct(api, 95).toFixed(1)} ms (${api.length} requests)`,
    `raw project read         p50 ${pct(rawRead, 50).toFixed(1)} ms, p95 ${pct(rawRead, 95).toFixed(1)} ms`,
    ...(await memoryFigures()),
  ];
  console.log(`\n${lines.join("\n")}`);
  if (http.findings !== raw.findings || http.findings !== TOTAL - TOTAL / 20) throw new Error("export count mismatch");
  process.exit(0);
}

if (process.argv[2] === "child") await child();
else await main();
