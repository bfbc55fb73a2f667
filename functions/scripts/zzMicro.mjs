import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedVessel, UNLIMITED } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { findingShape } = require("../lib/repos/findingDocs.js");
const { parseSnapshot } = require("../lib/repos/stored.js");
const { toFinding } = require("../lib/findings/map.js");
const { Timestamp } = require("firebase-admin/firestore");
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
const snap = await firestore().collection(`projects/${projectId}/findings`).get();
const docs = snap.docs;
const t = (label, f, n = 200) => { for (let i = 0; i < 20; i++) f(); const t0 = performance.now(); for (let i = 0; i < n; i++) f(); console.log(label.padEnd(20), ((performance.now() - t0) / n).toFixed(2), "ms/page"); };
if (process.env.ONLY) { const f = { parse: () => docs.map((d) => parseSnapshot(findingShape, d)), all: () => JSON.stringify({ data: docs.map((d) => toFinding(parseSnapshot(findingShape, d))) }) }[process.env.ONLY]; const { Session } = await import("node:inspector/promises"); const s = new Session(); s.connect(); await s.post("Profiler.enable"); await s.post("Profiler.setSamplingInterval", { interval: 50 }); await s.post("Profiler.start"); t(process.env.ONLY, f, 1000); const { profile } = await s.post("Profiler.stop"); (await import("node:fs")).writeFileSync("/tmp/micro.cpuprofile", JSON.stringify(profile)); process.exit(0); }
t("data()", () => docs.map((d) => d.data()));
t("parse", () => docs.map((d) => parseSnapshot(findingShape, d)));
const parsed = docs.map((d) => parseSnapshot(findingShape, d));
t("toFinding", () => parsed.map(toFinding));
const wire = parsed.map(toFinding);
t("stringify", () => JSON.stringify({ data: wire }));
t("stringify rows", () => { let s = ""; for (const r of wire) s += JSON.stringify(r) + ","; return s; });
t("all", () => JSON.stringify({ data: docs.map((d) => toFinding(parseSnapshot(findingShape, d))) }));
process.exit(0);
