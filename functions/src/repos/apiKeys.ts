import { Timestamp, type DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { KEY_APIS } from "../lib/apiKeyFormat";
import {
  companyOf,
  companyRef,
  projectOf,
  projectRef,
  rateLimitOverride,
  type CompanyDoc,
  type ProjectDoc,
} from "./companies";
import {
  nullableString,
  parseStoredOrNull,
  requiredOneOf,
  requiredString,
  stringList,
  text,
  timestamp,
  type Stored,
} from "./stored";

/**
 * `apiKeys/{keyHash}`: API-owned, written only by key management. `api`, `companyId` and
 * `prefix` have no safe absent reading: a key document without them is unusable (unknown key).
 */
export const apiKeyShape = {
  api: requiredOneOf(KEY_APIS),
  companyId: requiredString,
  projectId: nullableString,
  scopes: stringList,
  name: text,
  prefix: requiredString,
  createdBy: text,
  createdAt: timestamp,
  revokedAt: timestamp,
  revokedBy: nullableString,
  rateLimits: rateLimitOverride,
  lastUsedAt: timestamp,
  expiresAt: timestamp,
};
export type ApiKeyDoc = Stored<typeof apiKeyShape>;

export const apiKeysCollection = () => firestore().collection("apiKeys");

export const apiKeyRef = (keyHash: string) => apiKeysCollection().doc(keyHash);

/** `apiKeyUsage/{keyHash}`, the key's rate-limit counter (repos/apiKeyUsage). */
export const usageRef = (keyHash: string) => firestore().collection("apiKeyUsage").doc(keyHash);
/** Shard `i` of a key's usage counter (shard 0 is the counter document itself). */
export const shardRef = (keyHash: string, i: number) =>
  i === 0 ? usageRef(keyHash) : usageRef(keyHash).collection("shards").doc(String(i));

/** A key document as read; null when absent or unusable (an unknown key). */
export const apiKeyOf = (snap: DocumentSnapshot): ApiKeyDoc | null =>
  snap.exists ? parseStoredOrNull(apiKeyShape, snap.ref.path, snap.data()) : null;

export type NewApiKey = Omit<
  ApiKeyDoc,
  "createdAt" | "revokedAt" | "revokedBy" | "lastUsedAt" | "rateLimits" | "expiresAt"
>;

/** Whether a rolled key's expiry (`expiresAt`, docs/firestore-data.md) has passed at `nowMs`. */
export const hasExpired = (expiresAt: unknown, nowMs: number): boolean =>
  expiresAt instanceof Timestamp && expiresAt.toMillis() <= nowMs;

export function newApiKeyData(key: NewApiKey, now: Timestamp) {
  return { ...key, createdAt: now, revokedAt: null, revokedBy: null };
}

/** Where a key belongs: written once, at the key's creation, and never changed. */
export interface KeyOwners {
  companyId: string;
  projectId: string | null;
}

export interface OwnerDocuments {
  company: CompanyDoc | null;
  project: ProjectDoc | null;
}

export interface KeyDocuments {
  key: ApiKeyDoc | null;
  /** The key's usage counter, as the rate limiter starts from it. */
  counter: DocumentSnapshot;
  /** The owners' documents, when the owners were given (read in the same round trip). */
  owned: OwnerDocuments | null;
}

const ownerRefs = (o: KeyOwners) => [
  companyRef(o.companyId),
  ...(o.projectId ? [projectRef(o.projectId)] : []),
];
const ownedOf = ([company, project]: DocumentSnapshot[]): OwnerDocuments => ({
  company: companyOf(company),
  project: project ? projectOf(project) : null,
});

/**
 * A key and one of its counter documents (shard `counterShard`), fresh, with the documents of its
 * owners when those are known (one `getAll`).
 */
export async function readKeyDocuments(
  keyHash: string,
  owners: KeyOwners | undefined,
  counterShard = 0,
): Promise<KeyDocuments> {
  const [key, counter, ...owned] = await firestore().getAll(
    apiKeyRef(keyHash),
    shardRef(keyHash, counterShard),
    ...(owners ? ownerRefs(owners) : []),
  );
  return { key: apiKeyOf(key), counter, owned: owners ? ownedOf(owned) : null };
}

/** The company (and project) documents of a key, fresh. */
export async function readOwnerDocuments(owners: KeyOwners): Promise<OwnerDocuments> {
  return ownedOf(await firestore().getAll(...ownerRefs(owners)));
}
