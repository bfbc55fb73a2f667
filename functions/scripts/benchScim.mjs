// bash scripts/bench.sh benchScim.mjs: what a page of GET /scim/v2/Users costs (issue 15). Run
// under its own Firestore emulator. Seeds one company with 5,000 users and 5,000 more removed
// (as removal leaves them: `createdAt` moved to `removedCreatedAt`), then prints for the first
// page (startIndex=1) and the last (startIndex=4801), count=200: the median time of five requests
// through the HTTP app in this process, and the Firestore reads that page is billed (a count: one
// per 1,000 index entries; an offset query: every skipped document plus those returned), as the
// users repo reports them. The emulator's times overstate production's.
import { createRequire } from "node:module";
import request from "supertest";
import { median, ms } from "./benchStats.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { seedCompany, seedKey } = require("../generated/support/builders.js");
const { createCompanyApp } = require("../lib/company/app.js");
const { asInFunctionsRuntime } = require("../generated/support/scim.js");
const { rosterWindow } = require("../lib/repos/users.js");
const { countReads } = require("../generated/support/readCounter.js");
const { Timestamp } = require("firebase-admin/firestore");

const LIVE = 5000;
const REMOVED = 5000;
const COUNT = 200;

async function seed() {
  const companyId = await seedCompany({ seatCapacity: LIVE + 10, seatsUsed: LIVE });
  const writer = firestore().bulkWriter();
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < LIVE + REMOVED; i++) {
    const removed = i % 2 === 1; // interleaved in creation order, the worst case for positions
    const createdAt = Timestamp.fromMillis(start + i * 60_000);
    const email = `u${i}@bench.example`;
    writer.set(firestore().doc(`users/bench-${companyId}-${i}`), {
      companyId,
      email,
      userName: email,
      userNameKey: email,
      displayName: `User ${i}`,
      role: "standard",
      status: removed ? "deactivated" : "active",
      departmentId: null,
      provisionedBy: "scim",
      updatedAt: createdAt,
      deactivatedAt: removed ? createdAt : null,
      ...(removed ? { removedAt: createdAt, removedCreatedAt: createdAt } : { createdAt }),
    });
  }
  await writer.close();
  const { key } = await seedKey({
    api: "company",
    companyId,
    scopes: ["read", "provisioning"],
    rateLimits: { perMinute: 100_000, perDay: 1_000_000 },
  });
  return { companyId, key };
}

async function measure(app, companyId, key, startIndex) {
  const times = [];
  let body;
  for (let round = 0; round < 5; round++) {
    const t0 = process.hrtime.bigint();
    const res = await request(app)
      .get(`/scim/v2/Users?startIndex=${startIndex}&count=${COUNT}`)
      .set("Authorization", `Bearer ${key}`);
    times.push(ms(t0));
    if (res.status !== 200)
      throw new Error(`GET answered ${res.status}: ${JSON.stringify(res.body)}`);
    body = res.body;
  }
  const stats = await countReads(() => rosterWindow(companyId, startIndex - 1, COUNT));
  return {
    startIndex,
    totalResults: body.totalResults,
    itemsPerPage: body.itemsPerPage,
    medianMs: Math.round(median(times)),
    firestoreQueries: stats.requests,
    billedReads: stats.reads,
  };
}

const t0 = process.hrtime.bigint();
const { companyId, key } = await seed();
console.error(`seeded ${LIVE} users and ${REMOVED} removed ones in ${Math.round(ms(t0))} ms`);
const app = asInFunctionsRuntime(createCompanyApp());
const rows = [
  await measure(app, companyId, key, 1),
  await measure(app, companyId, key, LIVE - COUNT + 1),
];
console.log(JSON.stringify({ live: LIVE, removed: REMOVED, count: COUNT, pages: rows }, null, 2));
process.exit(0);
