// The peak RSS of the functions other than the two APIs, one of each kind, each in a fresh process
// of its own (an instance runs one function: scripts/benchInstanceServer.mjs), answering as many
// requests at once as it is deployed to take. Part of `npm run bench -- --memory`; alone:
// `npm run bench -- --instances`.
//
// What the deploy gives each function is read from its manifest, as firebase-tools reads it, and
// resolved with firebase-tools' own defaults where the code says nothing. The process runs with
// the deployed NODE_OPTIONS (functions/.env) and with V8's heap sized as Node sizes it in a
// container of the function's memory (measured under a container's memory limit: the old
// generation is half the memory, at least 256 MiB), so garbage is collected as it would be there.
// It receives what the platform sends:
// - a callable's POST with an Auth-emulator ID token;
// - a change trigger's CloudEvent, protobuf, with the whole document before and after (here a
//   finding of 50 checklist items);
// - the blocking function's POST, its JWT unsigned, with the Functions SDK's own debug switch that
//   the emulator uses to skip the check.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as seeds from "./benchSeeds.mjs";
import { forkMeasured } from "./benchServer.mjs";

const require = createRequire(import.meta.url);
const backend = require("firebase-tools/lib/deploy/functions/backend.js");
const { firestore } = require("../lib/config/firebase.js");
const { Timestamp } = require("firebase-admin/firestore");
// The protobuf types firebase-functions decodes an event with (a file its exports leave out).
const { DocumentEventData } = require(
  fileURLToPath(
    new URL("../node_modules/firebase-functions/protos/compiledFirestore.js", import.meta.url),
  ),
).google.events.cloud.firestore.v1;

const SERVER = fileURLToPath(new URL("./benchInstanceServer.mjs", import.meta.url));
const WAVES = 3;
/** Users and findings seeded: one per request of a wave, at the most any case deploys with. */
const MOST_AT_ONCE = 80;
/** Companies reported on: one per request of each wave and the first request (rollups). */
const REPORTED = 10 * (WAVES + 1);

/** Memory, and requests at once, as firebase-tools deploys the function. */
function deployed(fn) {
  const endpoint = JSON.parse(JSON.stringify(fn.__endpoint));
  const memory = endpoint.availableMemoryMb ?? backend.DEFAULT_MEMORY;
  const cpu = endpoint.cpu ?? backend.memoryToGen2Cpu(memory);
  const concurrency = endpoint.concurrency ?? (cpu >= 1 ? backend.DEFAULT_CONCURRENCY : 1);
  if (!Number.isInteger(concurrency) || !Number.isInteger(memory))
    throw new Error(`concurrency ${concurrency}, memory ${memory}?`);
  return { memory, concurrency };
}

/** A company with an owner who holds the Key User role, 20 keys and 500 audit entries. */
async function seedConsole() {
  const { seedCompany, seedKey, seedUser } = seeds.builders;
  const companyId = await seedCompany();
  const owner = await seeds.signedIn();
  await seedUser(owner.uid, { companyId, role: "owner", keyUser: true });
  const keys = [];
  for (let i = 0; i < 20; i++) keys.push(await seedKey({ api: "company", companyId }));
  await seeds.auditEntries(companyId, keys[0].prefix, 500);
  return { companyId, owner, prefixes: keys.map((k) => k.prefix) };
}

/** REPORTED companies of 300 incidents each over 2022–2025, and an Admin to report on them. */
async function seedReports() {
  const companies = [];
  for (let c = 0; c < REPORTED; c++) {
    const companyId = await seeds.builders.seedCompany();
    await seeds.incidents(companyId, 300, Date.parse("2022-01-01T00:00:00Z"), 4 * 365);
    companies.push(companyId);
  }
  return { companies, admin: await seeds.signedIn({ admin: true }) };
}

/** An unsigned blocking-function token (alg none), as the emulator's debug switch accepts. */
function signInJwt(uid, projectId) {
  const part = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://securetoken.google.com/${projectId}`,
    aud: "run.app",
    iat: now,
    exp: now + 300,
    sub: uid,
    event_id: `ev${uid}`,
    event_type: "beforeSignIn",
    ip_address: "192.0.2.1",
    user_agent: "bench",
    sign_in_method: "password",
    user_record: {
      uid,
      email: `${uid}@example.com`,
      metadata: { creation_time: now * 1000 },
      provider_data: [{ uid, provider_id: "password", email: `${uid}@example.com` }],
    },
  };
  return `${part({ alg: "none", typ: "JWT" })}.${part(payload)}.`;
}

/** A stored value as Firestore's protobuf Value. */
function protoValue(v) {
  if (v === null) return { nullValue: 0 };
  if (v instanceof Timestamp)
    return { timestampValue: { seconds: v.seconds, nanos: v.nanoseconds } };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(protoValue) } };
  if (typeof v === "object") return { mapValue: { fields: protoFields(v) } };
  if (typeof v === "boolean") return { booleanValue: v };
  if (typeof v === "number") return Number.isInteger(v) ? { integerValue: v } : { doubleValue: v };
  return { stringValue: String(v) };
}
const protoFields = (data) =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, protoValue(v)]));

/** The CloudEvents of a write of each of these stored documents, as production sends them. */
async function changeEvents(paths) {
  const projectId = process.env.GCLOUD_PROJECT;
  const snaps = await firestore().getAll(...paths.map((p) => firestore().doc(p)));
  return snaps.map((snap, i) => {
    const time = { seconds: snap.updateTime.seconds, nanos: snap.updateTime.nanoseconds };
    const doc = {
      name: `projects/${projectId}/databases/(default)/documents/${paths[i]}`,
      fields: protoFields(snap.data()),
      createTime: time,
      updateTime: time,
    };
    const data = DocumentEventData.encode(
      DocumentEventData.fromObject({ value: doc, oldValue: doc }),
    ).finish();
    return {
      specversion: "1.0",
      id: `bench-${i}`,
      source: `//firestore.googleapis.com/projects/${projectId}/databases/(default)`,
      type: "google.cloud.firestore.document.v1.written",
      time: new Date().toISOString(),
      datacontenttype: "application/protobuf",
      project: projectId,
      database: "(default)",
      namespace: "(default)",
      document: paths[i],
      data: Buffer.from(data).toString("base64"),
    };
  });
}

/** The functions measured, one of each kind, with the request each of a wave sends. */
function cases(data) {
  const projectId = process.env.GCLOUD_PROJECT;
  const call = (who, body) => ({
    headers: { authorization: `Bearer ${who.idToken}` },
    body: { data: body },
  });
  const { console: c, reports: r } = data;
  // Every report request a company and year not yet computed (a cache would answer a repeat).
  const reportedOn = (i, wave) => r.companies[wave * 10 + i];
  return [
    {
      name: "listAuditTrail",
      bundle: "console",
      request: (i) =>
        call(c.owner, {
          companyId: c.companyId,
          limit: 100,
          class: i % 2 ? "operational" : undefined,
        }),
    },
    {
      name: "apiKeyUsage",
      bundle: "console",
      request: (i) => call(c.owner, { companyId: c.companyId, prefix: c.prefixes[i % 20] }),
    },
    {
      name: "esrsS1Report",
      bundle: "console",
      request: (i, wave) => call(r.admin, { companyId: reportedOn(i, wave), year: 2024 }),
    },
    {
      name: "refreshKpiRollup",
      bundle: "console",
      request: (i, wave) => call(r.admin, { companyId: reportedOn(i, wave) }),
    },
    {
      name: "onFindingWritten",
      bundle: "triggers",
      path: "/event",
      request: (i) => ({ body: data.events[i] }),
    },
    {
      name: "rosterSignIn",
      bundle: "signIn",
      env: {
        FIREBASE_DEBUG_MODE: "true",
        FIREBASE_DEBUG_FEATURES: '{"skipTokenVerification":true}',
      },
      request: (i) => ({ body: { data: { jwt: signInJwt(data.users[i], projectId) } } }),
    },
  ];
}

/** Peak RSS of one function's fresh process over WAVES waves of its concurrency's requests. */
async function peakOf(fn) {
  const { memory, concurrency } = deployed(
    (await import(`../lib/bundle/${fn.bundle}.mjs`))[fn.name],
  );
  if (concurrency > MOST_AT_ONCE || (fn.bundle === "console" && concurrency > 10))
    throw new Error(`${fn.name}: ${concurrency} at once, more than the bench seeds for`);
  const heap = `--max-old-space-size=${Math.max(256, memory / 2)}`;
  const { worker, base, ask } = await forkMeasured(SERVER, [fn.bundle, fn.name], fn.env, heap);
  const send = async (i, wave) => {
    const { headers = {}, body } = fn.request(i, wave);
    const res = await fetch(`${base}${fn.path ?? "/"}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return res.ok ? null : `${res.status} ${text.slice(0, 200)}`;
  };
  // One request loads the function's code and opens its channels, as any instance's first does.
  const firstError = await send(concurrency - 1, WAVES);
  const idle = await ask("idle");
  const errors = [];
  for (let wave = 0; wave < WAVES; wave++)
    errors.push(
      ...(await Promise.all(Array.from({ length: concurrency }, (_, i) => send(i, wave)))),
    );
  const peak = await ask("peak");
  worker.kill();
  const failed = [firstError, ...errors].filter(Boolean);
  if (failed.length)
    throw new Error(`${fn.name}: ${failed.length} requests failed, e.g. ${failed[0]}`);
  // The quarter left is for what the bench does not have: the Functions Framework in the same
  // process, TLS to Firestore, real token checks, and the scatter between runs.
  const target = 0.75 * memory;
  return (
    `peak RSS, ${String(concurrency).padStart(2)} x ${fn.name.padEnd(16)} ${peak.rssMiB.toFixed(0)} MiB, +${(peak.rssMiB - idle.rssMiB).toFixed(0)} over its idle ${idle.rssMiB.toFixed(0)} MiB ` +
    `(young generation ${peak.youngMiB.toFixed(0)} MiB, ${heap}; ${memory} MiB deployed, target <= ${target.toFixed(0)}: ${peak.rssMiB <= target ? "ok" : "MISSED"})`
  );
}

/** The figures: one line per function measured. */
export async function instanceFigures() {
  console.log("Seeding the callables', the reports', the trigger's and the sign-in's data…");
  const findings = await seeds.findings(MOST_AT_ONCE, 50);
  const users = [];
  for (let i = 0; i < MOST_AT_ONCE; i++) {
    const uid = seeds.builders.randomId("u");
    await seeds.builders.seedUser(uid, { companyId: findings.companyId, status: "active" });
    users.push(uid);
  }
  const data = {
    console: await seedConsole(),
    reports: await seedReports(),
    events: await changeEvents(
      findings.ids.map((id) => `projects/${findings.projectId}/findings/${id}`),
    ),
    users,
  };
  const lines = [];
  for (const fn of cases(data)) lines.push(await peakOf(fn));
  return lines;
}
