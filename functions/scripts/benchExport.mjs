// The export's measurements for scripts/bench.mjs: the export both ways, page by page in step,
// and the floor that the rules put under the ratio of the two.
import { createServer } from "node:http";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { auditEntry } = require("../lib/repos/auditLogs.js");
const { FieldPath, FieldValue } = require("firebase-admin/firestore");

export const PAGE = 500;
export const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** The export through HTTP, one page per call: resolves with the page's time and whether more follow. */
function httpPages(base, key) {
  let token = null;
  return async () => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${base}/v1/findings?limit=${PAGE}${token ? `&page_token=${encodeURIComponent(token)}` : ""}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
    const body = await res.json();
    token = body.next_page_token;
    return { ms: ms(t0), findings: body.data.length, more: token !== null };
  };
}

/** The same pages read raw with the Admin SDK, one per call, each document materialised as any reader would. */
function rawPages(projectId) {
  const coll = firestore().collection(`projects/${projectId}/findings`);
  let after = null;
  return async () => {
    const t0 = process.hrtime.bigint();
    let q = coll.orderBy("dateCreated").orderBy(FieldPath.documentId()).limit(PAGE + 1);
    if (after) q = q.startAfter(after.get("dateCreated"), after.id);
    const snap = await q.get();
    const page = snap.docs.slice(0, PAGE);
    const findings = page.map((d) => d.data()).filter((data) => !data.hidden).length;
    after = page[page.length - 1];
    return { ms: ms(t0), findings, more: snap.docs.length > PAGE };
  };
}

/**
 * One full export both ways, page by page in step: HTTP page n and raw page n are read back to
 * back (which goes first alternates), so both see the machine in the same state. This VM's
 * speed drifts by a third and more within a minute (the same profile ran in 3.4 s and 5.2 s),
 * which whole exports timed one after the other turned into ratios anywhere from 1.18 to 1.44.
 */
export async function exportBothWays(base, key, projectId) {
  const ways = { http: httpPages(base, key), raw: rawPages(projectId) };
  const totals = { http: { ms: 0, findings: 0, requests: 0 }, raw: { ms: 0, findings: 0, requests: 0 } };
  const open = new Set(["http", "raw"]);
  for (let page = 0; open.size; page++) {
    for (const way of (page % 2 ? ["raw", "http"] : ["http", "raw"]).filter((w) => open.has(w))) {
      const step = await ways[way]();
      totals[way].ms += step.ms;
      totals[way].findings += step.findings;
      totals[way].requests++;
      if (!step.more) open.delete(way);
    }
  }
  return totals;
}

/**
 * What the rules cost a page however fast the code: the Firestore round trips every keyed
 * request makes in sequence (authentication's one read of key, company, project and counter;
 * the count's one commit of counter, `lastUsedAt` and audit entry), and the page's JSON over
 * loopback HTTP (a plain server sending the same bytes; the client parses them). Medians of n.
 */
export async function floorPerPage(big, base, n = 40) {
  const db = firestore();
  const refs = [db.doc(`apiKeys/${big.hash}`), db.doc(`companies/${big.companyId}`), db.doc(`projects/${big.projectId}`), db.doc(`apiKeyUsage/${big.hash}`)];
  const page = await (await fetch(`${base}/v1/findings?limit=${PAGE}`, { headers: { Authorization: `Bearer ${big.key}` } })).text();
  const plain = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(page));
  await new Promise((r) => plain.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${plain.address().port}/`;
  const times = { read: [], commit: [], json: [] };
  for (let i = 0; i < n; i++) {
    let t0 = process.hrtime.bigint();
    await db.getAll(...refs);
    times.read.push(ms(t0));
    t0 = process.hrtime.bigint();
    const batch = db.batch();
    batch.set(refs[3], { bench: FieldValue.increment(1) }, { merge: true });
    batch.update(refs[0], { lastUsedAt: FieldValue.serverTimestamp() });
    batch.create(db.collection(`companies/${big.companyId}/auditLogs`).doc(), auditEntry({
      class: "operational", action: "api.request", actor: { type: "api_key", id: "fl_bench", name: "bench key" }, api: "findings", method: "GET",
      path: "/v1/findings", status: 200, requestId: `req_${i}`, projectId: big.projectId,
    }));
    await batch.commit();
    times.commit.push(ms(t0));
    t0 = process.hrtime.bigint();
    await (await fetch(url)).json();
    times.json.push(ms(t0));
  }
  plain.close();
  const [read, commit, json] = [times.read, times.commit, times.json].map((xs) => pct(xs, 50));
  return { read, commit, json, total: read + commit + json, bytes: Buffer.byteLength(page) };
}
