// npm run bench -- profile: where the export's CPU goes. Seeds 3,000 findings (5 checklist items
// each), serves the findings app in this process under the V8 sampling profiler (node:inspector),
// exports them five times over HTTP, and prints the 15 functions with the most self time (and
// writes the .cpuprofile for a flame graph, e.g. in Chrome DevTools or speedscope).
//   bash scripts/bench.sh profileExport.mjs [OUT.cpuprofile]
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedVessel, UNLIMITED } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { createFindingsApp } = require("../lib/findings/app.js");
const { Timestamp } = require("firebase-admin/firestore");

const COUNT = 3000;
const out = process.argv[2] ?? "export.cpuprofile";

const { companyId, projectId, key } = await seedVessel(UNLIMITED);
const writer = firestore().bulkWriter();
const base = Date.parse("2025-01-01T00:00:00Z");
for (let i = 0; i < COUNT; i++) {
  const checklist = Array.from({ length: 5 }, (_, j) => ({
    title: `Action ${j}`,
    done: j % 2 === 0,
    dateCreated: Timestamp.fromMillis(base + i),
    dateClosed: null,
    createdBy: "u1",
    createdByName: "C",
    createdByEmail: "c@private.example",
  }));
  writer.set(
    firestore().doc(`projects/${projectId}/findings/p${String(i).padStart(6, "0")}`),
    findingData(projectId, companyId, {
      findingNumber: i,
      dateCreated: Timestamp.fromMillis(base + i * 60_000),
      checklist,
    }),
  );
}
await writer.close();

const server = await new Promise((resolve) => {
  const s = createFindingsApp().listen(0, "127.0.0.1", () => resolve(s));
});
const url = `http://127.0.0.1:${server.address().port}`;
async function exportAll() {
  let token = null;
  do {
    const res = await fetch(
      `${url}/v1/findings?limit=500${token ? `&page_token=${encodeURIComponent(token)}` : ""}`,
      { headers: { Authorization: `Bearer ${key}` } },
    );
    token = (await res.json()).next_page_token;
  } while (token);
}
await exportAll(); // warm up

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const t0 = performance.now();
for (let i = 0; i < 5; i++) await exportAll();
const elapsed = performance.now() - t0;
const { profile } = await session.post("Profiler.stop");
writeFileSync(out, JSON.stringify(profile));

const dt = new Map(profile.nodes.map((n) => [n.id, 0]));
profile.samples.forEach((id, i) => dt.set(id, dt.get(id) + (profile.timeDeltas[i] ?? 0)));
const self = new Map();
for (const node of profile.nodes) {
  const { functionName, url: file, lineNumber } = node.callFrame;
  const name = `${functionName || "(anonymous)"} ${file.replace(/^.*\/functions\//, "").replace(/^.*node_modules\//, "~/")}:${lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + dt.get(node.id));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`5 exports of ${COUNT} findings: ${elapsed.toFixed(0)} ms; profile ${out}`);
for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(
    `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
  );
}
server.close();
process.exit(0);
