import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as functions from "../../src/index";

/** What `firebase deploy` takes from this repository, and the settings it gives the functions. */
const root = join(__dirname, "..", "..", "..");
const firebaseJson = JSON.parse(readFileSync(join(root, "firebase.json"), "utf8"));
const packageJson = JSON.parse(readFileSync(join(root, "functions", "package.json"), "utf8"));
type Endpoint = Record<string, unknown>;
// As the deploy tooling reads it: serialised, so params appear as `params.NAME`.
const endpoint = (name: keyof typeof functions): Endpoint =>
  JSON.parse(JSON.stringify((functions[name] as unknown as { __endpoint: Endpoint }).__endpoint));

describe("deployment configuration", () => {
  it("deploys on the nodejs24 runtime, and the package says so", () => {
    expect(firebaseJson.functions[0].runtime).toBe("nodejs24");
    expect(packageJson.engines.node).toBe("24");
  });

  it("a plain firebase deploy ships functions and indexes, never a rule set that would replace the app's", () => {
    expect(firebaseJson.firestore).toEqual({ indexes: "firestore.indexes.json" });
  });

  it("has no install script that needs a file the upload leaves out", () => {
    expect(packageJson.scripts.postinstall).toBeUndefined();
    expect(packageJson.scripts.preinstall).toBeUndefined();
  });

  it("Cloud Build runs no build step over the upload (it would run `build`, which needs src/)", () => {
    expect(packageJson.scripts["gcp-build"]).toBe("");
  });

  it("ignores test code by patterns firebase-tools matches against absolute paths", () => {
    const ignore: string[] = firebaseJson.functions[0].ignore;
    expect(ignore).toEqual(
      expect.arrayContaining(["**/lib/tools", "src", "test", "scripts", "*.local"]),
    );
    expect(ignore.filter((p) => p.includes("/") && !p.startsWith("**/"))).toEqual([]);
  });

  it.each(["findingsApi", "companyApi"] as const)(
    "%s: 1 GiB, 1 vCPU, 16 at once, 60 s, capped instances, own service account",
    (name) => {
      expect(endpoint(name)).toMatchObject({
        availableMemoryMb: 1024,
        cpu: 1,
        concurrency: 16,
        timeoutSeconds: 60,
        maxInstances: "params.MAX_INSTANCES",
        serviceAccountEmail: "params.RUNTIME_SERVICE_ACCOUNT",
        region: ["europe-west1"],
        secretEnvironmentVariables: [{ key: "PAGE_TOKEN_SECRET" }],
      });
    },
  );

  // Said in the code, not left to firebase-tools: it gives a new function 1 vCPU but keeps an
  // existing one's CPU, and deploys 80 at once where none is said. `npm run bench -- --memory`
  // measures one function of each kind at these (docs/benchmarks.md, "Memory").
  it.each([
    ["setApiAccess", 256, 10],
    ["createApiKey", 256, 10],
    ["listApiKeys", 256, 10],
    ["revokeApiKey", 256, 10],
    ["rollApiKey", 256, 10],
    ["apiKeyUsage", 256, 10],
    ["listAuditTrail", 256, 10],
    ["refreshKpiRollup", 512, 10],
    ["esrsS1Report", 512, 10],
    ["freezeEsrsS1Report", 512, 10],
    ["onFindingWritten", 256, 20],
    ["onFindingCommentWritten", 256, 20],
    ["onFindingFileWritten", 256, 20],
    ["onIncidentWritten", 256, 20],
    ["roleRematch", 512, 1],
    ["departmentRematch", 512, 1],
    ["kpiRollupDaily", 512, 1],
    ["accountIntentSweep", 512, 1],
    ["groupRoleSweep", 512, 1],
    ["rosterSignIn", null, 80],
  ] as const)(
    "%s: %s MiB (null: the default 256), 1 vCPU, %s at once, the shared service account and cap",
    (name, memory, n) => {
      expect(endpoint(name)).toMatchObject({
        availableMemoryMb: memory,
        cpu: 1,
        concurrency: n,
        maxInstances: "params.MAX_INSTANCES",
        serviceAccountEmail: "params.RUNTIME_SERVICE_ACCOUNT",
      });
    },
  );

  // Both converge on the current state, so a retried event is harmless; without retry a transient
  // failure (contention on a user) would leave users un-matched until the next change.
  it.each([
    ["roleRematch", "companies/{companyId}"],
    ["departmentRematch", "companies/{companyId}/departments/{departmentId}"],
  ] as const)("%s is a 2nd-gen Firestore trigger on %s, retried on failure", (name, document) => {
    expect(endpoint(name)).toMatchObject({
      eventTrigger: {
        eventType: "google.cloud.firestore.document.v1.written",
        eventFilterPathPatterns: { document },
        retry: true,
      },
      serviceAccountEmail: "params.RUNTIME_SERVICE_ACCOUNT",
    });
  });
});
