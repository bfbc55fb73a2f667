import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedVessel, UNLIMITED } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { findingShape } = require("../lib/repos/findingDocs.js");
const { parseSnapshot } = require("../lib/repos/stored.js");
const { toFinding } = require("../lib/findings/map.js");
const { Timestamp } = require("firebase-admin/firestore");
const { PerformanceObserver } = require("node:perf_hooks");
let gc = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) gc += e.duration; }).observe({ entryTypes: ["gc"] });
const { projectId, companyId } = await seedVessel(UNLIMITED);
const writer = firestore().bulkWriter();
const base = Date.parse("2025-01-01T00:00:00Z");
for (let i = 0; i < 500; i++) {
  const checklist = Array.from({ length: 5 }, (_, j) => ({ title: `Action ${j + 1} of finding ${i}`, done: j % 2 === 0,
    dateCreated: Timestamp.fromMillis(base + i * 60_000), dateClosed: null, createdBy: "u1", createdByName: "Creator", createdByEmail: "c@private.example" }));
  writer.set(firestore().doc(`projects/${projectId}/findings/b${String(i).padStart(6, "0")}`),
    findingData(projectId, companyId, { findingNumber: i, dateCreated: Timestamp.fromMillis(base + i * 60_000), checklist }));
}
await writer.close();
const q = firestore().collection(`projects/${projectId}/findings`).limit(500);
const viaStream = (conv) => new Promise((res, rej) => { const rows = []; const s = q.stream(); s.on("data", (d) => rows.push(conv(d))); s.on("end", () => res(rows)); s.on("error", rej); });
const variants = {
  raw: async () => { const snap = await q.get(); return snap.docs.map((d) => d.data()).length; },
  objects: async () => { const rows = await viaStream((d) => toFinding(parseSnapshot(findingShape, d))); let s = ""; for (const r of rows) s += JSON.stringify(r) + ","; return s.length; },
  strings: async () => { const rows = await viaStream((d) => JSON.stringify(toFinding(parseSnapshot(findingShape, d)))); let s = ""; for (const r of rows) s += r + ","; return s.length; },
};
const res = Object.fromEntries(Object.keys(variants).map((k) => [k, { ms: [], cpu: [], gc: [] }]));
for (let round = 0; round < 25; round++) for (const [k, f] of Object.entries(variants)) {
  const t0 = performance.now(), c0 = process.cpuUsage(), g0 = gc; await f(); const c = process.cpuUsage(c0);
  if (round >= 5) { res[k].ms.push(performance.now() - t0); res[k].cpu.push((c.user + c.system) / 1000); res[k].gc.push(gc - g0); }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(8), "wall", med(v.ms), "cpu", med(v.cpu), "gc", med(v.gc));
process.exit(0);
