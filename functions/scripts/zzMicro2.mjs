import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedVessel, UNLIMITED } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { findingShape } = require("../lib/repos/findingDocs.js");
const { parseSnapshot, FieldPath, fieldAt } = require("../lib/repos/stored.js");
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
const docs = (await firestore().collection(`projects/${projectId}/findings`).get()).docs;
const datas = docs.map((d) => d.data());
const t = (label, f, n = 300) => { for (let i = 0; i < 30; i++) f(); const xs = []; for (let r = 0; r < 5; r++) { const t0 = performance.now(); for (let i = 0; i < n; i++) f(); xs.push((performance.now() - t0) / n); } xs.sort(); console.log(label.padEnd(24), xs[2].toFixed(3), "ms/page"); };
t("parse (lib)", () => docs.map((d) => parseSnapshot(findingShape, d)));
t("data() only", () => docs.map((d) => d.data()));
// variant: entries cached
const cache = new WeakMap();
function readEntries(shape, input, path, id) {
  let e = cache.get(shape); if (!e) cache.set(shape, (e = Object.entries(shape)));
  const out = id === undefined ? {} : { id };
  for (let i = 0; i < e.length; i++) { const [k, r] = e[i]; out[k] = r(input[k], fieldAt(path, k)); }
  return out;
}
t("readEntries (top only)", () => datas.map((d, i) => readEntries(findingShape, d, new FieldPath("x"), "id")));
function readIn(shape, input, path, id) {
  const out = id === undefined ? {} : { id };
  for (const k in shape) out[k] = shape[k](input[k], fieldAt(path, k));
  return out;
}
t("readIn (top only)", () => datas.map((d) => readIn(findingShape, d, new FieldPath("x"), "id")));
const gen = new WeakMap();
function compiled(shape) {
  let f = gen.get(shape);
  if (!f) { const keys = Object.keys(shape); f = new Function("s", "fieldAt", `return (input, path, id) => ({ id, ${keys.map((k) => `${JSON.stringify(k)}: s[${JSON.stringify(k)}](input[${JSON.stringify(k)}], fieldAt(path, ${JSON.stringify(k)}))`).join(", ")} })`)(shape, fieldAt); gen.set(shape, f); }
  return f;
}
t("compiled (top only)", () => datas.map((d) => compiled(findingShape)(d, new FieldPath("x"), "id")));
const wire = docs.map((d) => toFinding(parseSnapshot(findingShape, d)));
const parsed = docs.map((d) => parseSnapshot(findingShape, d));
t("toFinding", () => parsed.map(toFinding));
t("toIso x7500", () => { let s; for (let i = 0; i < 7500; i++) s = new Date(1.7e12 + i).toISOString(); return s; });
t("stringify rows", () => { let s = ""; for (const r of wire) s += JSON.stringify(r) + ","; return s; });
process.exit(0);
