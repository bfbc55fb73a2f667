import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from "@firebase/rules-unit-testing";
import { collection, doc, getDoc, getDocs, setDoc, deleteDoc } from "firebase/firestore";

// A project of its own: loading rules and clearing data never touch the API tests' project.
const PROJECT = "demo-rules-test";
let env: RulesTestEnvironment;

beforeAll(async () => {
  const [host, port] = process.env.FIRESTORE_EMULATOR_HOST!.split(":");
  env = await initializeTestEnvironment({
    projectId: PROJECT,
    firestore: { host, port: Number(port), rules: readFileSync(join(__dirname, "../../../firestore.rules"), "utf8") },
  });
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore();
    await setDoc(doc(db, "users/alice"), { companyId: "acme", role: "owner", keyUser: true, status: "active" });
    await setDoc(doc(db, "users/bob"), { companyId: "other", role: "owner", status: "active" });
    await setDoc(doc(db, "users/olga"), { companyId: "acme", role: "owner", status: "active" });
    await setDoc(doc(db, "users/kim"), { companyId: "acme", role: "inspector", keyUser: true, status: "invited" });
    await setDoc(doc(db, "users/sam"), { companyId: "acme", role: "standard", status: "active" });
    await setDoc(doc(db, "users/dora"), { companyId: "acme", role: "owner", keyUser: true, status: "deactivated" });
    await setDoc(doc(db, "users/kurt"), { companyId: "acme", role: "manager", keyUser: true, status: "deactivated" });
    await setDoc(doc(db, "users/nell"), { companyId: "acme", role: "owner", keyUser: true });
    await setDoc(doc(db, "apiKeys/h1"), { companyId: "acme", api: "findings", prefix: "vfe_12345678" });
    await setDoc(doc(db, "apiKeyUsage/h1"), { minuteCount: 1 });
    await setDoc(doc(db, "companies/acme/auditLogs/e1"), { action: "api.request" });
    await setDoc(doc(db, "companies/acme/kpiRollups/latest"), { incidents: {} });
  });
});

afterAll(async () => {
  await env.clearFirestore();
  await env.cleanup();
});

const alice = () => env.authenticatedContext("alice").firestore();
const bob = () => env.authenticatedContext("bob").firestore();
const admin = () => env.authenticatedContext("staff", { admin: true }).firestore();
const anon = () => env.unauthenticatedContext().firestore();

describe("firestore.rules", () => {
  it.each([["a member", alice], ["a platform admin", admin], ["an anonymous client", anon]])(
    "%s can neither read nor write apiKeys, usage counters or key locks",
    async (_who, ctx) => {
      await assertFails(getDoc(doc(ctx(), "apiKeys/h1")));
      await assertFails(getDocs(collection(ctx(), "apiKeys")));
      await assertFails(setDoc(doc(ctx(), "apiKeys/h2"), { companyId: "acme" }));
      await assertFails(deleteDoc(doc(ctx(), "apiKeys/h1")));
      await assertFails(getDoc(doc(ctx(), "apiKeyUsage/h1")));
      await assertFails(setDoc(doc(ctx(), "apiKeyUsage/h1"), { minuteCount: 0 }));
      await assertFails(getDoc(doc(ctx(), "apiKeyLocks/acme__findings")));
      await assertFails(setDoc(doc(ctx(), "apiKeyLocks/acme__findings"), { updatedAt: 0 }));
    },
  );

  const as = (uid: string) => env.authenticatedContext(uid).firestore();

  it.each([["the owner with Key User", "alice"], ["an owner without Key User", "olga"], ["a Key User holder of another role", "kim"]])(
    "%s reads the company's audit log",
    async (_who, uid) => {
      await assertSucceeds(getDoc(doc(as(uid), "companies/acme/auditLogs/e1")));
      await assertSucceeds(getDocs(collection(as(uid), "companies/acme/auditLogs")));
    },
  );

  it("a platform Admin reads any company's audit log and rollup", async () => {
    await assertSucceeds(getDocs(collection(admin(), "companies/acme/auditLogs")));
    await assertSucceeds(getDoc(doc(admin(), "companies/acme/kpiRollups/latest")));
  });

  it.each([
    ["a member who is neither owner nor Key User", "sam"],
    ["a deactivated owner with Key User", "dora"],
    ["a deactivated Key User", "kurt"],
    ["an owner whose status is missing", "nell"],
  ])("%s cannot read the audit log", async (_who, uid) => {
    await assertFails(getDoc(doc(as(uid), "companies/acme/auditLogs/e1")));
    await assertFails(getDocs(collection(as(uid), "companies/acme/auditLogs")));
  });

  it("live members read the rollup; a deactivated one does not", async () => {
    await assertSucceeds(getDoc(doc(as("sam"), "companies/acme/kpiRollups/latest")));
    await assertFails(getDoc(doc(as("dora"), "companies/acme/kpiRollups/latest")));
  });

  it("nobody writes audit entries from a client, not even a member", async () => {
    await assertFails(setDoc(doc(alice(), "companies/acme/auditLogs/e2"), { action: "forged" }));
    await assertFails(setDoc(doc(alice(), "companies/acme/auditLogs/e1"), { action: "changed" }));
    await assertFails(deleteDoc(doc(alice(), "companies/acme/auditLogs/e1")));
    await assertFails(setDoc(doc(alice(), "companies/acme/kpiRollups/latest"), { incidents: 1 }));
  });

  it("a member of another company, or an anonymous client, cannot read the audit log", async () => {
    await assertFails(getDoc(doc(bob(), "companies/acme/auditLogs/e1")));
    await assertFails(getDocs(collection(bob(), "companies/acme/auditLogs")));
    await assertFails(getDoc(doc(anon(), "companies/acme/auditLogs/e1")));
    await assertFails(getDoc(doc(env.authenticatedContext("nobody").firestore(), "companies/acme/auditLogs/e1")));
  });
});
