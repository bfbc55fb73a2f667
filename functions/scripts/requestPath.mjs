// npm run paths: the files of functions/src one warm request runs (docs/development.md, "How a
// request flows"), measured rather than counted by hand. Run under the emulators:
//   node scripts/emulators.mjs exec -- node_modules/.bin/firebase emulators:exec --only auth \
//     --project demo-safety-apis "node scripts/requestPath.mjs"
// (npm run paths builds, compiles the test helpers and does that). Each request is sent once to
// warm up (module loading, first-call set-up), then again with V8's precise coverage counting
// calls per function; a file of lib/ (the compiled src/) counts when one of its functions ran,
// leaving out lib/, config/ and logs.ts, tsc's interop helpers and re-export getters (a value read
// through a module, not code of ours). The requests go through the deployed function's own
// handler (src/functions/), in process, against the emulators' seeded data.
import express from "express";
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const LIB = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "lib");
const { firestore } = require("../lib/config/firebase.js");
const { findingsApi } = require("../lib/functions/findingsApi.js");
const { companyApi } = require("../lib/functions/companyApi.js");
const { recordFindingChange } = require("../lib/services/changes.js");
const { seedVessel, UNLIMITED } = require("../generated/support/builders.js");
const { findingData } = require("../generated/support/findingBuilders.js");
const { asInFunctionsRuntime, patchOp, scimCompany } = require("../generated/support/scim.js");

const LEFT_OUT = /^(lib|config|bundle)\/|^logs\.js$/;
/** What tsc emits around our code: `export … from` getters (its interop helpers are `__…`). */
const REEXPORT_GETTER = /^function ?\(\) \{ return [\w$]+(\.[\w$]+|\[k\])+; \}$/;

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

/** The src/ files one call of `send` ran a function of, in the order of their first line. */
async function measure(send) {
  await send();
  await session.post("Profiler.takePreciseCoverage");
  await send();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = [];
  for (const script of result) {
    if (!script.url.startsWith(pathToFileURL(LIB).href)) continue;
    const file = relative(LIB, fileURLToPath(script.url));
    if (LEFT_OUT.test(file)) continue;
    const text = readFileSync(join(LIB, file), "utf8");
    const ran = script.functions.some(({ functionName, ranges: [range] }) => {
      if (range.count === 0 || range.startOffset === 0) return false;
      const source = text.slice(range.startOffset, range.endOffset).replace(/\s+/g, " ");
      return !functionName.startsWith("__") && !REEXPORT_GETTER.test(source);
    });
    if (ran) files.push(file.replace(/\.js$/, ".ts"));
  }
  return files.sort();
}

function serve(fn) {
  const app = asInFunctionsRuntime(express().use((req, res) => fn(req, res)));
  return new Promise((done) => {
    const server = app.listen(0, "127.0.0.1", () =>
      done({ server, base: `http://127.0.0.1:${server.address().port}` }),
    );
  });
}

async function call(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { "content-type": "application/scim+json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

function print(title, files) {
  console.log(`\n${title}: ${files.length} files`);
  for (const file of files) console.log(`  ${file}`);
}

const findings = await serve(findingsApi);
const vessel = await seedVessel(UNLIMITED);
const findingPath = (i) => `projects/${vessel.projectId}/findings/f${i}`;
for (let i = 0; i < 5; i++) {
  await firestore()
    .doc(findingPath(i))
    .set(findingData(vessel.projectId, vessel.companyId, { findingNumber: i }));
}
const delta = (query) =>
  call(findings.base, vessel.key, "GET", `/v1/findings/delta?${new URLSearchParams(query)}`);
// A first sync's first page of several: it takes the watermark and writes a page token.
const first = await measure(() => delta({ limit: 2 }));
print("GET /v1/findings/delta, a first sync's 1st page (no token, 5 findings, limit 2)", first);
const { delta_token: token } = await delta({});
await firestore().doc(findingPath(1)).update({ title: "Changed" });
await recordFindingChange(vessel.projectId, "f1");
const before = (await firestore().doc(findingPath(2)).get()).data();
await firestore().doc(findingPath(2)).update({ hidden: true });
await recordFindingChange(vessel.projectId, "f2", before);
const incremental = await measure(() => delta({ delta_token: token }));
print("GET /v1/findings/delta, a delta (a token, one finding changed and one hidden)", incremental);
findings.server.close();

const company = await serve(companyApi);
const { key } = await scimCompany();
const user = await call(company.base, key, "POST", "/scim/v2/Users", {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
  userName: `paths-${Date.now()}@example.com`,
  name: { givenName: "Ada", familyName: "Lovelace" },
  active: true,
});
let round = 0;
const rename = () =>
  call(
    company.base,
    key,
    "PATCH",
    `/scim/v2/Users/${user.id}`,
    patchOp({ op: "replace", path: "name.givenName", value: `Ada ${++round}` }),
  );
print("PATCH /scim/v2/Users/{id}, a change of the name", await measure(rename));
company.server.close();
session.disconnect();
process.exit(0);
