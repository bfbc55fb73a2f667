// npm run bench:rollup: what the KPI rollup and the ESRS S1-14 report cost (a script, not a
// timed test). Run under its own Firestore emulator (scripts/bench.sh). Seeds one company with
// 1,000 incidents and one with 100,000 incidents plus 10,000 documents in each other area,
// then prints for each: the time, the number of queries, the documents read and the reads
// Firestore would bill (one per 1,000 index entries an aggregation matches), next to reading
// every incident once. The query count must not grow with the documents. The emulator computes
// aggregations by scanning documents, not from indexes, so its times overstate production's.
import { createRequire } from "node:module";
import { ms } from "./benchStats.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedCompany } = require("../generated/support/builders.js");
const { computeRollup } = require("../lib/services/kpiRollup.js");
const { computeEsrsReport } = require("../lib/services/esrs/report.js");
const { countReads } = require("../generated/support/readCounter.js");
const { Timestamp } = require("firebase-admin/firestore");

const NOW = new Date("2026-11-15T12:00:00Z");
const YEAR = 2026;
const OTHER_AREAS = ["actions", "inspections", "assets", "riskAssessments", "locations"];

/** Deterministic pseudo-random numbers, so both runs see the same shape of data. */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

async function seed(incidents, othersEach) {
  const companyId = await seedCompany();
  const writer = firestore().bulkWriter();
  const random = rng(incidents);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const span = 24 * 30 * 86_400_000;
  for (let i = 0; i < incidents; i++) {
    const type = pick([
      "injury",
      "ill_health",
      "near_miss",
      "dangerous_occurrence",
      "property_damage",
      "environmental",
    ]);
    writer.set(firestore().doc(`companies/${companyId}/incidents/i${i}`), {
      reference: `INC-${i}`,
      title: "Benchmark incident",
      description: "",
      eventDate: Timestamp.fromMillis(NOW.getTime() - random() * span),
      reportedAt: Timestamp.fromMillis(NOW.getTime()),
      status: pick(["reported", "under_investigation", "action_required", "closed"]),
      type,
      workRelated: random() < 0.9,
      recordable: random() < 0.6,
      fatality: random() < 0.001,
      personType: pick(["employee", "non_employee", "other_worker", "visitor", null]),
      daysLost: type === "injury" ? Math.floor(random() * 10) : 0,
      locationId: null,
      departmentId: null,
      reportedBy: "u1",
      reportedByName: "Bench",
      ...(i % 50 === 0 ? { hidden: true } : {}),
    });
  }
  for (const area of OTHER_AREAS) {
    for (let i = 0; i < othersEach; i++) {
      writer.set(firestore().doc(`companies/${companyId}/${area}/d${i}`), {
        createdAt: Timestamp.fromMillis(NOW.getTime() - random() * span),
        status: pick(["open", "closed", "planned"]),
      });
    }
  }
  for (let m = 1; m <= 12; m++)
    writer.set(
      firestore().doc(
        `companies/${companyId}/workedHours/app-${YEAR}-${String(m).padStart(2, "0")}`,
      ),
      { month: `${YEAR}-${String(m).padStart(2, "0")}`, hours: 10_000, source: "app" },
    );
  writer.set(firestore().doc(`companies/${companyId}/healthSafetyCoverage/${YEAR}`), {
    headcount: 200,
    coveredHeadcount: 190,
    auditedHeadcount: 150,
    certificationStandards: ["ISO 45001"],
  });
  await writer.close();
  return companyId;
}

const counts = [];
async function measure(label, companyId) {
  let t0 = process.hrtime.bigint();
  const { result: rollup, ...rollupStats } = await countReads(() => computeRollup(companyId, NOW));
  const rollupMs = ms(t0);
  t0 = process.hrtime.bigint();
  const esrsStats = await countReads(() => computeEsrsReport(companyId, YEAR));
  const esrsMs = ms(t0);
  t0 = process.hrtime.bigint();
  const all = await firestore().collection(`companies/${companyId}/incidents`).get();
  const readAllMs = ms(t0);
  counts.push([rollupStats.requests, esrsStats.requests]);
  return [
    `${label}: ${rollup.areas.incidents.total} visible incidents counted (${all.size} stored)`,
    `  KPI rollup        ${rollupMs.toFixed(0).padStart(6)} ms, ${rollupStats.requests} read requests, ${rollupStats.documents} documents read, ${rollupStats.reads} billed reads`,
    `  ESRS S1-14 ${YEAR}   ${esrsMs.toFixed(0).padStart(6)} ms, ${esrsStats.requests} read requests, ${esrsStats.documents} documents read, ${esrsStats.reads} billed reads`,
    `  read every incident once ${readAllMs.toFixed(0).padStart(6)} ms, ${all.size} documents read, ${all.size} billed reads`,
  ];
}

const LARGE = Number(process.env.BENCH_INCIDENTS ?? 100_000);
let t0 = process.hrtime.bigint();
console.log("Seeding 1,000 incidents and 1,000 documents per other area…");
const small = await seed(1_000, 1_000);
console.log(`Seeding ${LARGE.toLocaleString("en")} incidents and 10,000 documents per other area…`);
const large = await seed(LARGE, 10_000);
console.log(`seeded in ${(ms(t0) / 1000).toFixed(0)} s\n`);
const lines = [
  ...(await measure("1,000 incidents", small)),
  ...(await measure(`${LARGE.toLocaleString("en")} incidents`, large)),
];
const same = counts.every(([r, e]) => r === counts[0][0] && e === counts[0][1]);
lines.push(
  `query counts the same at both sizes: ${same ? "yes" : "NO"} (rollup ${counts.map(([r]) => r).join(" / ")}, ESRS ${counts.map(([, e]) => e).join(" / ")})`,
);
console.log(lines.join("\n"));
process.exit(0);
