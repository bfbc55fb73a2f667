// npm run bench -- profile: where the export's CPU goes. Seeds 3,000 findings (5 checklist items
// each), serves the findings app in this process under the V8 sampling profiler (node:inspector),
// exports them five times over HTTP, and prints the 15 functions with the most self time (and
// writes the .cpuprofile for a flame graph, e.g. in Chrome DevTools or speedscope).
//   bash scripts/bench.sh profileExport.mjs [OUT.cpuprofile]
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";
import { findings } from "./benchSeeds.mjs";

const require = createRequire(import.meta.url);
const { createFindingsApp } = require("../lib/findings/app.js");

const COUNT = 3000;
const out = process.argv[2] ?? "export.cpuprofile";

const { key } = await findings(COUNT);

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
