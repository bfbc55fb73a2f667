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
export const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/**
 * The export through HTTP, one page per call: resolves with the page's time and whether more
 * follow.
 */
function httpPages(base, key) {
  let token = null;
  return async () => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(
      `${base}/v1/findings?limit=${PAGE}${token ? `&page_token=${encodeURIComponent(token)}` : ""}`,
      { headers: { Authorization: `Bearer ${key}` } },
    );
    if (res.status !== 200) throw new Error(`export failed: ${res.status} ${await res.text()}`);
    const body = await res.json();
    token = body.next_page_token;
    return { ms: ms(t0), findings: body.data.length, more: token !== null };
  };
}

/**
 * The same pages read raw with the Admin SDK, one per call, each document materialised as any
 * reader would; with the CPU time each took in this process.
 */
function rawPages(projectId) {
  const coll = firestore().collection(`projects/${projectId}/findings`);
  let after = null;
  return async () => {
    const t0 = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    let q = coll
      .orderBy("dateCreated")
      .orderBy(FieldPath.documentId())
      .limit(PAGE + 1);
    if (after) q = q.startAfter(after.get("dateCreated"), after.id);
    const snap = await q.get();
    const page = snap.docs.slice(0, PAGE);
    const findings = page.map((d) => d.data()).filter((data) => !data.hidden).length;
    after = page[page.length - 1];
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    return { ms: ms(t0), cpuMs, findings, more: snap.docs.length > PAGE };
  };
}

/**
 * The raw pages plus only what the rules add to each, with none of our code: authentication's
 * one read (key, company, project, counter), the count's one commit (counter and the pending
 * audit entry; `lastUsedAt` only goes with a minute's first request) before the page, the
 * entry's status after it, and a page's JSON (page 1's, of the same size) from a plain HTTP
 * server, parsed by the client. The floor under the HTTP export's time. `forget` drops the part
 * timings so far; close it when done.
 */
export async function rulesOnly(big, base) {
  const db = firestore();
  const refs = [
    db.doc(`apiKeys/${big.hash}`),
    db.doc(`companies/${big.companyId}`),
    db.doc(`projects/${big.projectId}`),
    db.doc(`apiKeyUsage/${big.hash}`),
  ];
  const page = await (
    await fetch(`${base}/v1/findings?limit=${PAGE}`, {
      headers: { Authorization: `Bearer ${big.key}` },
    })
  ).text();
  const plain = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(page),
  );
  await new Promise((r) => plain.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${plain.address().port}/`;
  const parts = { read: [], commit: [], settle: [], json: [] };
  let n = 0;
  const timed = async (part, work) => {
    const t0 = process.hrtime.bigint();
    await work();
    parts[part].push(ms(t0));
  };
  const pages = () => {
    const raw = rawPages(big.projectId);
    return async () => {
      const t0 = process.hrtime.bigint();
      await timed("read", () => db.getAll(...refs));
      const entry = db.collection(`companies/${big.companyId}/auditLogs`).doc(`req_bench_${n++}`);
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
            projectId: big.projectId,
          }),
        );
        return batch.commit();
      });
      const step = await raw();
      await timed("settle", () => entry.update({ status: 200 }));
      await timed("json", async () => (await fetch(url)).json());
      return { ...step, ms: ms(t0) };
    };
  };
  const medians = () =>
    Object.fromEntries(Object.entries(parts).map(([part, xs]) => [part, pct(xs, 50)]));
  const forget = () => Object.values(parts).forEach((xs) => xs.splice(0));
  return { pages, medians, forget, bytes: Buffer.byteLength(page), close: () => plain.close() };
}

/**
 * One full export three ways, page by page in step: HTTP page n, raw page n and rules-only
 * page n are read back to back (which goes first rotates), so all see the machine in the same
 * state; a fourth, `compare`, through another code's server when `compareBase` is given. This
 * VM's speed drifts by a third and more within a minute (the same profile ran in 3.4 s and
 * 5.2 s), which whole exports timed one after the other turned into ratios anywhere from 1.18 to
 * 1.44.
 */
export async function exportInStep(base, key, projectId, rules, compareBase = undefined) {
  const ways = { http: httpPages(base, key), raw: rawPages(projectId), rules: rules.pages() };
  if (compareBase) ways.compare = httpPages(compareBase, key);
  const names = Object.keys(ways);
  const totals = Object.fromEntries(
    names.map((name) => [name, { ms: 0, findings: 0, requests: 0, cpuMs: [] }]),
  );
  const open = new Set(names);
  for (let page = 0; open.size; page++) {
    const order = names.map((_, i) => names[(page + i) % names.length]);
    for (const way of order.filter((w) => open.has(w))) {
      const step = await ways[way]();
      totals[way].ms += step.ms;
      totals[way].findings += step.findings;
      totals[way].requests++;
      if (step.cpuMs !== undefined) totals[way].cpuMs.push(step.cpuMs);
      if (!step.more) open.delete(way);
    }
  }
  return totals;
}
