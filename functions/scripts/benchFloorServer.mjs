// The floor process of the export bench (scripts/benchExport.mjs): a process of its own, run like
// the API server (functions/.env's NODE_OPTIONS), so its heap and collector are charged to it
// alone, as the API's are. A plain node:http server, none of our code in the path:
//   GET /raw    the next page read raw with the Admin SDK; answers its time, CPU and count
//   GET /rules  the same page streamed (streamedPages), plus only what the rules add (the key's
//               read, the count's commit with the pending audit entry, the entry's status), then
//               page 1's JSON (same size)
//   (?restart=1 starts an export over). Asked over the fork channel: "parts" (the rules' part
//   medians so far), "forget" (drop them).
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { PAGE } from "./benchExport.mjs";
import "./benchGuard.mjs";
import { median, ms } from "./benchStats.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { auditEntry } = require("../lib/repos/auditLogs.js");
const { FieldPath, FieldValue } = require("firebase-admin/firestore");

const { hash, companyId, projectId, key, base } = JSON.parse(process.env.BENCH_FLOOR);

/** The query of the page after `after` (its `dateCreated` and id), one more than a page. */
function pageAfter(after) {
  const q = firestore()
    .collection(`projects/${projectId}/findings`)
    .orderBy("dateCreated")
    .orderBy(FieldPath.documentId())
    .limit(PAGE + 1);
  return after ? q.startAfter(after.dateCreated, after.id) : q;
}

/** The raw pages, one per call, each document materialised as any reader would. */
function rawPages() {
  let after = null;
  return async () => {
    const t0 = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const snap = await pageAfter(after).get();
    const page = snap.docs.slice(0, PAGE);
    const findings = page.map((d) => d.data()).filter((data) => !data.hidden).length;
    const last = page[page.length - 1];
    after = { dateCreated: last.get("dateCreated"), id: last.id };
    const used = process.cpuUsage(cpu);
    return {
      ms: ms(t0),
      cpuMs: (used.user + used.system) / 1000,
      findings,
      more: snap.docs.length > PAGE,
    };
  };
}

/**
 * The same pages read as cheaply as the Admin SDK allows, for the floor: streamed, each document
 * materialised as it arrives and nothing kept but the cursor. The rules require none of what
 * `get()` adds (the whole page held as snapshots, then materialised), so the floor does not pay
 * it; the raw read, the ratio's denominator, stays as it has always been measured.
 */
function streamedPages() {
  let after = null;
  return () =>
    new Promise((resolve, reject) => {
      let read = 0;
      let findings = 0;
      let last = null;
      pageAfter(after)
        .stream()
        .on("data", (doc) => {
          if (++read > PAGE) return;
          const data = doc.data();
          if (!data.hidden) findings++;
          last = { dateCreated: data.dateCreated, id: doc.id };
        })
        .on("error", reject)
        .on("end", () => {
          after = last;
          resolve({ findings, more: read > PAGE });
        });
    });
}

const db = firestore();
const refs = [
  db.doc(`apiKeys/${hash}`),
  db.doc(`companies/${companyId}`),
  db.doc(`projects/${projectId}`),
  db.doc(`apiKeyUsage/${hash}`),
];
const parts = { read: [], commit: [], settle: [] };
const timed = async (part, work) => {
  const t0 = process.hrtime.bigint();
  await work();
  parts[part].push(ms(t0));
};
let entries = 0;

/** What the rules add around one raw page. */
async function rulesPage(raw) {
  await timed("read", () => db.getAll(...refs));
  const entry = db.collection(`companies/${companyId}/auditLogs`).doc(`req_bench_${entries++}`);
  await timed("commit", () => {
    const batch = db.batch();
    batch.set(refs[3], { bench: FieldValue.increment(1) }, { merge: true });
    batch.create(
      entry,
      auditEntry({
        class: "operational",
        action: "api.request",
        actor: { type: "api_key", id: "fl_bench", name: "bench key" },
        api: "findings",
        method: "GET",
        path: "/v1/findings",
        status: null,
        requestId: entry.id,
        projectId,
      }),
    );
    return batch.commit();
  });
  const step = await raw();
  await timed("settle", () => entry.update({ status: 200 }));
  return step;
}

const page = await (
  await fetch(`${base}/v1/findings?limit=${PAGE}`, { headers: { Authorization: `Bearer ${key}` } })
).text();
const reads = { raw: rawPages, rules: streamedPages };
const exports = { raw: rawPages(), rules: streamedPages() };
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://floor");
  const way = url.pathname.slice(1);
  if (!(way in exports)) return res.writeHead(404).end();
  if (url.searchParams.has("restart")) exports[way] = reads[way]();
  const read = way === "raw" ? exports.raw() : rulesPage(exports.rules);
  read.then(
    (step) =>
      way === "raw"
        ? res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(step))
        : res
            .writeHead(200, {
              "content-type": "application/json",
              "x-findings": step.findings,
              "x-more": String(step.more),
            })
            .end(page),
    (err) => res.writeHead(500).end(String(err)),
  );
});
server.listen(0, "127.0.0.1", () => {
  process.send({
    base: `http://127.0.0.1:${server.address().port}`,
    bytes: Buffer.byteLength(page),
  });
});
process.on("message", (m) => {
  if (m === "parts")
    process.send(Object.fromEntries(Object.entries(parts).map(([k, xs]) => [k, median(xs)])));
  else if (m === "forget") {
    Object.values(parts).forEach((xs) => xs.splice(0));
    process.send({});
  }
});
