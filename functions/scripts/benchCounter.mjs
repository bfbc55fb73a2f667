// npm run bench:counter (bash scripts/bench.sh benchCounter.mjs; also run last by `npm run bench`):
// the rate-limit counter at an identity provider's speed (issue 26). Run under its own Firestore
// emulator, the company app served in this process over HTTP (not through the Functions emulator,
// which starts a worker per concurrent request). One provisioning key whose limits are raised by
// arrangement (`companies.rateLimits.provisioning`) sends Entra's first-sync lookup, a SCIM
// `userName eq` filter GET:
//   sustained  25 requests/s, open loop, for 60 s (limit 3,000/min: nothing refused)
//   burst      400 requests at once inside one clock minute, limit 250/min
// and prints, per run: sent, admitted, refused, 5xx, p50/p95 latency, the counter's commits per
// second (the writes the hot document takes) and the exactness checks: admitted ==
// min(sent, limit) in the window, the counter's dayCount == admitted == the audit entries of
// admitted requests. Exits 1 when a check fails.
import { createRequire } from "node:module";
import { pct } from "./benchStats.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedCompany, seedKey } = require("../generated/support/builders.js");
const { createCompanyApp } = require("../lib/company/app.js");
const { asInFunctionsRuntime } = require("../generated/support/scim.js");
const { hashKey } = require("../lib/lib/apiKeyFormat.js");
const { WriteBatch } = require("@google-cloud/firestore");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The counter's commits during a run, and those refused by its compare-and-swap.
let commits = 0;
let conflicts = 0;
/** Successful counter writes per counter document (the key's own and its shards). */
const perDoc = new Map();
let patched = false;
function countCommits() {
  if (patched) return;
  patched = true;
  const commit = WriteBatch.prototype.commit;
  WriteBatch.prototype.commit = function (...args) {
    // Only the batches that write a counter (the entries' statuses are written apart).
    // `_ops` is the SDK's private list of the batch's writes.
    if (!this._ops?.some((o) => o.docPath.startsWith("apiKeyUsage/")))
      return commit.apply(this, args);
    commits++;
    const docs = this._ops.map((o) => o.docPath).filter((p) => p.startsWith("apiKeyUsage/"));
    return commit.apply(this, args).then(
      (r) => {
        for (const d of docs) perDoc.set(d, (perDoc.get(d) ?? 0) + 1);
        return r;
      },
      (err) => {
        conflicts++;
        throw err;
      },
    );
  };
}

function serve(app) {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}` }),
    );
  });
}

async function seed(perMinute, perDay) {
  const companyId = await seedCompany({ rateLimits: { provisioning: { perMinute, perDay } } });
  const { key } = await seedKey({ api: "company", companyId, scopes: ["read", "provisioning"] });
  return { companyId, key };
}

async function one(base, key, i) {
  const t0 = performance.now();
  const filter = encodeURIComponent(`userName eq "user${i}@contoso.example"`);
  const res = await fetch(`${base}/scim/v2/Users?filter=${filter}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  return {
    status: res.status,
    ms: performance.now() - t0,
    policy: res.headers.get("ratelimit-policy"),
  };
}

/** Waits until at least `needed` seconds are left in the current UTC minute. */
async function roomInMinute(needed) {
  const left = 60 - (Date.now() % 60_000) / 1000;
  if (left < needed) await sleep(left * 1000 + 200);
}

async function checks(companyId, key, admitted) {
  // The key's own counter document and its shards (docs/firestore-data.md): the key's usage is
  // their sum.
  const own = firestore().doc(`apiKeyUsage/${hashKey(key)}`);
  const docs = [await own.get(), ...(await own.collection("shards").get()).docs];
  const shardsUsed = docs.filter((d) => d.exists).length;
  const counter = Object.fromEntries(
    ["dayCount", "minuteCount"].map((f) => [f, docs.reduce((n, d) => n + (d.get(f) ?? 0), 0)]),
  );
  const entries = await firestore()
    .collection(`companies/${companyId}/auditLogs`)
    .where("actor.type", "==", "api_key")
    .get();
  const counted = entries.docs.filter((d) => d.get("action") !== "api.refused").length;
  return {
    counterDay: counter.dayCount ?? 0,
    counterMinute: counter.minuteCount ?? 0,
    counted,
    admitted,
    shardsUsed,
  };
}

async function run(name, base, { perMinute, perDay, rate, seconds, burst }) {
  const { companyId, key } = await seed(perMinute, perDay);
  // The check request counts in the burst's minute: wait for room before it, not after.
  if (burst) await roomInMinute(20);
  await one(base, key, -1).then((r) => {
    if (r.policy !== `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`)
      throw new Error(`the arrangement does not apply: ${r.policy}`);
  });
  const sent = burst ?? rate * seconds;
  commits = 0;
  conflicts = 0;
  perDoc.clear();
  const startMinute = Math.floor(Date.now() / 60_000);
  const t0 = performance.now();
  const pending = [];
  for (let i = 0; i < sent; i++) {
    if (!burst) {
      const wait = t0 + (i * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
    }
    pending.push(one(base, key, i));
  }
  const results = await Promise.all(pending);
  const elapsed = (performance.now() - t0) / 1000;
  const admittedRes = results.filter((r) => r.status < 400);
  const refused = results.filter((r) => r.status === 429).length;
  const errors = results.filter((r) => r.status >= 500).length;
  const other = results.length - admittedRes.length - refused - errors;
  const c = await checks(companyId, key, admittedRes.length + 1);
  const oneMinute = Math.floor(Date.now() / 60_000) === startMinute;
  // With one clock minute and no refusal by the day, the window is the minute: exactly min(sent +
  // 1, limit).
  const expected = oneMinute ? Math.min(sent + 1, perMinute) : null;
  const ok =
    errors === 0 &&
    other === 0 &&
    c.counterDay === c.admitted &&
    c.counted === c.admitted &&
    (expected === null ? c.admitted <= sent + 1 : c.admitted === expected);
  const ms = results.map((r) => r.ms);
  return {
    ok,
    line:
      `${name.padEnd(10)} limit ${perMinute}/min: sent ${sent} in ${elapsed.toFixed(1)} s, admitted ${admittedRes.length}, refused ${refused}, 5xx ${errors}, other ${other}; ` +
      `p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms; counter commits ${commits} (${(commits / elapsed).toFixed(1)}/s, ${conflicts} conflicts); ` +
      `counter documents ${c.shardsUsed}, busiest ${(Math.max(0, ...perDoc.values()) / elapsed).toFixed(1)} writes/s; ` +
      `counter dayCount ${c.counterDay} == admitted ${c.admitted} (incl. the check request) == audit entries ${c.counted}` +
      `${expected === null ? " (crossed a minute)" : `, admitted == min(sent, limit) = ${expected}`}: ${ok ? "ok" : "FAILED"}`,
  };
}

/** The figures' lines and whether every check held; `seconds`: the sustained run's length. */
export async function counterFigures(seconds = 60) {
  countCommits();
  const { server, base } = await serve(asInFunctionsRuntime(createCompanyApp()));
  const rows = [
    await run("sustained", base, { perMinute: 3000, perDay: 200_000, rate: 25, seconds }),
    await run("burst", base, { perMinute: 250, perDay: 200_000, burst: 400 }),
  ];
  server.close();
  return {
    ok: rows.every((r) => r.ok),
    lines: [
      "rate-limit counter, one provisioning key (in-process app, Firestore emulator)",
      ...rows.map((r) => r.line),
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ok, lines } = await counterFigures(process.argv.includes("--quick") ? 10 : 60);
  console.log(`\n${lines.join("\n")}`);
  process.exit(ok ? 0 : 1);
}
