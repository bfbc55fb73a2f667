// The peak RSS of the functions other than the two APIs, each in a fresh process of its own (an
// instance runs one function), answering as many requests at once as it is deployed to take: its
// own `concurrency` (src/config/runtime.ts), or else firebase-tools' default for 1 vCPU (the gen2
// default at 256 and 512 MiB), 80 (docs/operations.md, "Deployment"). Run with the deployed
// NODE_OPTIONS (functions/.env), like the API server. Part of `npm run bench -- --memory`.
//
// The process loads the deployed bundles (lib/bundle/) and nothing else, and receives what the
// platform would send: a callable's POST with an Auth-emulator ID token, a change trigger's
// CloudEvent (the JSON form the emulator delivers), and a blocking function's POST (its JWT
// unsigned, with the Functions SDK's own debug switch that the emulator uses to skip the check).
import express from "express";
import { fileURLToPath } from "node:url";
import { forkMeasured, memoryNow } from "./benchServer.mjs";

/** firebase-tools' default for a function with a whole vCPU and no concurrency of its own. */
const DEFAULT_CONCURRENCY = 80;
/** firebase-tools' default memory (MiB). */
const DEFAULT_MEMORY = 256;
/** Users and findings seeded: one per request of a wave at the default concurrency, the most. */
const SEEDED = DEFAULT_CONCURRENCY;
const WAVES = 3;

/** Child: one function behind an HTTP server, as the Functions runtime serves it. */
async function child(bundle, name) {
  const fn = (await import(`../lib/bundle/${bundle}.mjs`))[name];
  const app = express();
  app.use(express.json());
  app.post("/event", async (req, res) => {
    await fn(req.body);
    res.status(204).end();
  });
  app.post("/", (req, res) => fn(req, res));
  // What the deploy gives it: its own in the manifest firebase-tools reads (JSON, where "the
  // default" is null), or the default.
  const endpoint = JSON.parse(JSON.stringify(fn.__endpoint));
  const concurrency = endpoint.concurrency ?? DEFAULT_CONCURRENCY;
  const memory = endpoint.availableMemoryMb ?? DEFAULT_MEMORY;
  if (!Number.isInteger(concurrency) || !Number.isInteger(memory))
    throw new Error(`${name}: concurrency ${concurrency}, memory ${memory}?`);
  const server = app.listen(0, "127.0.0.1", () =>
    process.send({ base: `http://127.0.0.1:${server.address().port}`, concurrency, memory }),
  );
  process.on("message", (m) => process.send(memoryNow(m === "idle")));
}

/** A company with an owner who holds the Key User role, 20 keys and 500 audit entries. */
async function seedConsole(seeds) {
  const { seedCompany, seedKey, seedUser } = seeds.builders;
  const companyId = await seedCompany();
  const owner = await seeds.signedIn();
  await seedUser(owner.uid, { companyId, role: "owner", keyUser: true });
  const keys = [];
  for (let i = 0; i < 20; i++) keys.push(await seedKey({ api: "company", companyId }));
  await seeds.auditEntries(companyId, keys[0].prefix, 500);
  return { companyId, owner, prefixes: keys.map((k) => k.prefix) };
}

/** 16 companies of 100 incidents each over 2021–2025, and an Admin to report on them. */
async function seedReports(seeds) {
  const companies = [];
  for (let c = 0; c < 16; c++) {
    const companyId = await seeds.builders.seedCompany();
    await seeds.incidents(companyId, 100, Date.parse("2021-01-01T00:00:00Z"), 5 * 365);
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

/** A change trigger's CloudEvent for `document`, as the emulator sends it (JSON data). */
function changeEvent(projectId, document, i) {
  const at = new Date().toISOString();
  const name = `projects/${projectId}/databases/(default)/documents/${document}`;
  return {
    specversion: "1.0",
    id: `bench-${i}-${Date.now()}`,
    source: `//firestore.googleapis.com/projects/${projectId}/databases/(default)`,
    type: "google.cloud.firestore.document.v1.written",
    time: at,
    datacontenttype: "application/json",
    project: projectId,
    database: "(default)",
    namespace: "(default)",
    document,
    data: { value: { name, fields: {}, createTime: at, updateTime: at } },
  };
}

/** The functions measured, heaviest of each kind, with the request each of a wave sends. */
function cases(seeds, data) {
  const projectId = process.env.GCLOUD_PROJECT;
  const call = (who, body) => ({
    headers: { authorization: `Bearer ${who.idToken}` },
    body: { data: body },
  });
  const { console: c, reports: r } = data;
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
      // Every request of every wave a report not yet computed (the cache would answer a repeat).
      request: (i, wave) =>
        call(r.admin, { companyId: r.companies[i % 16], year: 2025 - wave * 5 - (i >> 4) }),
    },
    {
      name: "onFindingWritten",
      bundle: "triggers",
      path: "/event",
      request: (i) => ({
        body: changeEvent(
          projectId,
          `projects/${data.findings.projectId}/findings/${data.findings.ids[i]}`,
          i,
        ),
      }),
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
  const { worker, base, ask, concurrency, memory } = await forkMeasured(
    fileURLToPath(import.meta.url),
    ["child", fn.bundle, fn.name],
    fn.env,
  );
  if (concurrency > SEEDED) throw new Error(`${fn.name}: concurrency ${concurrency} > ${SEEDED}`);
  const send = async (i, wave) => {
    const { headers = {}, body } = fn.request(i, wave);
    const res = await fetch(`${base}${fn.path ?? "/"}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return res.ok
      ? null
      : `${res.status} ${text.slice(0, 200)} for ${JSON.stringify(body).slice(0, 200)}`;
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
  // The runtime's own process (the Functions Framework, its HTTP server) shares the instance's
  // memory: the target leaves a quarter of it.
  const target = 0.75 * memory;
  return (
    `peak RSS, ${String(concurrency).padStart(2)} x ${fn.name.padEnd(16)} ${peak.rssMiB.toFixed(0)} MiB, +${(peak.rssMiB - idle.rssMiB).toFixed(0)} over its idle ${idle.rssMiB.toFixed(0)} MiB ` +
    `(young generation ${peak.youngMiB.toFixed(0)} MiB; ${memory} MiB deployed, target <= ${target.toFixed(0)}: ${peak.rssMiB <= target ? "ok" : "MISSED"})`
  );
}

/** The figures: one line per function measured. `seeds` are the bench's seeding helpers. */
export async function instanceFigures(seeds) {
  console.log(`Seeding the callables', the trigger's and the sign-in's data…`);
  const findings = await seeds.findings(SEEDED);
  const users = [];
  for (let i = 0; i < SEEDED; i++) {
    const uid = seeds.builders.randomId("u");
    await seeds.builders.seedUser(uid, { companyId: findings.companyId, status: "active" });
    users.push(uid);
  }
  const data = {
    console: await seedConsole(seeds),
    reports: await seedReports(seeds),
    findings,
    users,
  };
  const lines = [];
  for (const fn of cases(seeds, data)) lines.push(await peakOf(fn));
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "child")
  await child(process.argv[3], process.argv[4]);
