// The data `npm run bench` seeds (scripts/bench.mjs and its parts), with the test helpers built
// as CommonJS (scripts/buildTestSupport.mjs) so that they share the built code's Firestore client.
import { createRequire } from "node:module";
import "./benchGuard.mjs";

const require = createRequire(import.meta.url);
const { firestore } = require("../lib/config/firebase.js");
const { auditEntry } = require("../lib/repos/auditLogs.js");
const { Timestamp } = require("firebase-admin/firestore");
export const builders = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
export const { signedIn } = require("../generated/support/authUsers.js");

/**
 * `count` findings of `checklistItems` items each (1 in `hiddenEvery` hidden, if given) in a new
 * vessel with an unlimited key; their ids in order.
 */
export async function findings(count, checklistItems = 5, hiddenEvery = 0) {
  const { companyId, projectId, key, hash } = await builders.seedVessel(builders.UNLIMITED);
  const writer = firestore().bulkWriter();
  const base = Date.parse("2025-01-01T00:00:00Z");
  const ids = [];
  for (let i = 0; i < count; i++) {
    const checklist = Array.from({ length: checklistItems }, (_, j) => ({
      title: `Action ${j + 1} of finding ${i}`,
      done: j % 2 === 0,
      dateCreated: Timestamp.fromMillis(base + i * 60_000),
      dateClosed: null,
      createdBy: "u1",
      createdByName: "Creator",
      createdByEmail: "c@private.example",
    }));
    ids.push(`b${String(i).padStart(6, "0")}`);
    writer.set(
      firestore().doc(`projects/${projectId}/findings/${ids[i]}`),
      findingData(projectId, companyId, {
        findingNumber: i,
        dateCreated: Timestamp.fromMillis(base + i * 60_000),
        checklist,
        ...(hiddenEvery && i % hiddenEvery === 0 ? { hidden: true } : {}),
      }),
    );
  }
  await writer.close();
  return { companyId, projectId, key, hash, ids };
}

/** `count` incidents of about 1 KB each, their dates spread evenly over `days` from `from`. */
export async function incidents(
  companyId,
  count,
  from = Date.parse("2025-06-01T00:00:00Z"),
  days = 1,
) {
  const writer = firestore().bulkWriter();
  const step = Math.floor((days * 86_400_000) / count);
  for (let i = 0; i < count; i++) {
    writer.set(firestore().doc(`companies/${companyId}/incidents/i${String(i).padStart(4, "0")}`), {
      reference: `INC-2025-${i}`,
      title: `Incident ${i}`,
      description: "Slipped on the wet deck near the forward mooring winch. ".repeat(16),
      eventDate: Timestamp.fromMillis(from + i * step),
      reportedAt: Timestamp.fromMillis(from + i * step),
      status: "closed",
      type: "injury",
      workRelated: true,
      recordable: true,
      fatality: false,
      personType: "employee",
      daysLost: 2,
      locationId: "loc-1",
      departmentId: "dep-1",
      reportedBy: "u1",
      reportedByName: "Reporter",
    });
  }
  await writer.close();
}

/** `count` audit entries of about 1 KB each, requests of the key `prefix`. */
export async function auditEntries(companyId, prefix, count) {
  const writer = firestore().bulkWriter();
  for (let i = 0; i < count; i++) {
    writer.set(
      firestore().doc(`companies/${companyId}/auditLogs/a${String(i).padStart(4, "0")}`),
      auditEntry({
        class: "operational",
        action: "api.request",
        actor: { type: "api_key", id: prefix, name: "bench key" },
        api: "company",
        method: "GET",
        path: `/v1/incidents/${"x".repeat(900)}`,
        status: 200,
        requestId: `req_${String(i).padStart(32, "0")}`,
        projectId: null,
      }),
    );
  }
  await writer.close();
}
