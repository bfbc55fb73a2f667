import type { DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { apiKeyOf, apiKeyRef, type ApiKeyDoc } from "./apiKeys";
import { usageRef } from "./apiKeyUsage";
import {
  companyOf,
  companyRef,
  projectOf,
  projectRef,
  type CompanyDoc,
  type ProjectDoc,
} from "./companies";

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
 * A key and its counter, fresh, with the documents of its owners when those are known (one
 * `getAll`).
 */
export async function readKeyDocuments(
  keyHash: string,
  owners: KeyOwners | undefined,
): Promise<KeyDocuments> {
  const [key, counter, ...owned] = await firestore().getAll(
    apiKeyRef(keyHash),
    usageRef(keyHash),
    ...(owners ? ownerRefs(owners) : []),
  );
  return { key: apiKeyOf(key), counter, owned: owners ? ownedOf(owned) : null };
}

/** The company (and project) documents of a key, fresh. */
export async function readOwnerDocuments(owners: KeyOwners): Promise<OwnerDocuments> {
  return ownedOf(await firestore().getAll(...ownerRefs(owners)));
}
