import { Timestamp, type DocumentData } from "firebase-admin/firestore";
import { randomBytes } from "node:crypto";
import { firestore } from "../../src/config/firebase";
import {
  composeKey,
  displayPrefix,
  generateKey,
  hashKey,
  type KeyApi,
} from "../../src/lib/apiKeyFormat";
import { apiKeysCollection, newApiKeyData } from "../../src/repos/apiKeys";
import { ANY_DOMAIN } from "../../src/repos/companies";

/**
 * Seed builders writing documents exactly as docs/firestore-data.md describes them. Emulator tests
 * use them with random ids so test files never share data.
 */
export const randomId = (prefix = "t") => `${prefix}${randomBytes(8).toString("hex")}`;

export async function seedCompany(
  overrides: DocumentData = {},
  id = randomId("co"),
): Promise<string> {
  await firestore()
    .collection("companies")
    .doc(id)
    .set({
      name: `Company ${id}`,
      plan: "enterprise",
      apiAccess: { findingsExport: true, companyApi: true },
      seatCapacity: 25,
      seatsUsed: 0,
      ...overrides,
    });
  return id;
}

/** The company's stored seat counter, as the provisioning tests compare it. */
export async function seatsUsed(companyId: string): Promise<number> {
  return (await firestore().doc(`companies/${companyId}`).get()).get("seatsUsed");
}

export async function seedProject(
  companyId: string,
  overrides: DocumentData = {},
  id = randomId("pr"),
): Promise<string> {
  await firestore()
    .collection("projects")
    .doc(id)
    .set({
      companyId,
      name: `Vessel ${id}`,
      customerProjectId: null,
      status: "In service",
      currentMilestone: null,
      isClosed: false,
      dateCreated: Timestamp.fromDate(new Date("2025-01-15T00:00:00Z")),
      projectProgress: null,
      findingsCounter: 0,
      findingsCounterIsCorrected: null,
      inspectionsCounter: 0,
      issuesCounter: 0,
      vessel: {},
      classification: {},
      propulsion: {},
      survey: {},
      claim: {},
      client: {},
      ...overrides,
    });
  return id;
}

export interface SeededKey {
  key: string;
  hash: string;
  prefix: string;
}

export interface KeySeed {
  api: KeyApi;
  companyId: string;
  projectId?: string | null;
  scopes?: string[];
  name?: string;
  revoked?: boolean;
  rateLimits?: { perMinute?: number; perDay?: number };
  /** Fixed 32 random characters; random otherwise. */
  random?: string;
}

export async function seedKey(seed: KeySeed): Promise<SeededKey> {
  const key = seed.random ? composeKey(seed.api, seed.random) : generateKey(seed.api);
  const hash = hashKey(key);
  const now = Timestamp.now();
  const data: DocumentData = newApiKeyData(
    {
      api: seed.api,
      companyId: seed.companyId,
      projectId: seed.api === "findings" ? (seed.projectId ?? null) : null,
      scopes: seed.scopes ?? ["read"],
      name: seed.name ?? `${seed.api} test key`,
      prefix: displayPrefix(key),
      createdBy: "seed",
    },
    now,
  );
  if (seed.revoked) Object.assign(data, { revokedAt: now, revokedBy: "seed" });
  if (seed.rateLimits) data.rateLimits = seed.rateLimits;
  await apiKeysCollection().doc(hash).set(data);
  if (data.scopes.includes("provisioning")) await allowAnyDomain(seed.companyId);
  return { key, hash, prefix: displayPrefix(key) };
}

/**
 * Without e-mail domains a company provisions nobody (docs/firestore-data.md): a provisioning
 * key's company that has no list gets the operator's explicit "any domain", so tests may use
 * random domains. Tests of the domains seed their own list first.
 */
async function allowAnyDomain(companyId: string): Promise<void> {
  const ref = firestore().doc(`companies/${companyId}`);
  await firestore().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (snap.exists && snap.get("provisioningDomains") === undefined)
      tx.update(ref, { provisioningDomains: [ANY_DOMAIN] });
  });
}

/** Limits a bench never runs into. */
export const UNLIMITED = { perMinute: 1_000_000, perDay: 1_000_000 };

/** A company with one project and a findings key that no test's burst of requests exhausts. */
export async function seedVessel(
  rateLimits: KeySeed["rateLimits"] = { perMinute: 10_000 },
): Promise<{ companyId: string; projectId: string; key: string; hash: string }> {
  const companyId = await seedCompany();
  const projectId = await seedProject(companyId);
  const { key, hash } = await seedKey({ api: "findings", companyId, projectId, rateLimits });
  return { companyId, projectId, key, hash };
}

/** `users/{uid}` as the app writes it, with canary private fields. */
export async function seedUser(uid: string, fields: DocumentData): Promise<void> {
  await firestore()
    .collection("users")
    .doc(uid)
    .set({
      companyId: null,
      email: `${uid}@private-canary.example`,
      displayName: `User ${uid}`,
      role: "standard",
      status: "active",
      departmentId: null,
      createdAt: Timestamp.now(),
      updatedAt: Timestamp.now(),
      ...fields,
    });
}

/** A company key with both scopes and room for a test's bursts. */
export async function seedProvisioningKey(companyId: string): Promise<string> {
  const { key } = await seedKey({
    api: "company",
    companyId,
    scopes: ["read", "provisioning"],
    rateLimits: { perMinute: 10_000 },
  });
  return key;
}

/**
 * `n` active users of the company written straight to Firestore in batches of 400 (a large
 * roster, seeded fast), with `fields` over the defaults; answers their ids.
 */
export async function seedRoster(
  companyId: string,
  n: number,
  fields: DocumentData = {},
): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomId("crew"));
  for (let i = 0; i < n; i += 400) {
    const batch = firestore().batch();
    for (const id of ids.slice(i, i + 400))
      batch.set(firestore().doc(`users/${id}`), {
        companyId,
        displayName: `Crew ${id}`,
        role: "standard",
        status: "active",
        createdAt: Timestamp.now(),
        ...fields,
      });
    await batch.commit();
  }
  return ids;
}
