import type { Timestamp } from "firebase-admin/firestore";
import { composeKey, displayPrefix, hashKey, type KeyApi } from "../../lib/apiKeyFormat";
import { apiKeysCollection, newApiKeyData } from "../../repos/apiKeys";

/**
 * The demo dataset's keys: fixed strings so the README and a fresh `npm start` agree. They
 * exist only in emulator-data/ (a `demo-` project) and are worthless anywhere else.
 */
export interface DemoKey {
  label: string;
  api: KeyApi;
  key: string;
  random: string;
  scopes: string[];
  revoked: boolean;
}

function demo(
  label: string,
  api: KeyApi,
  random: string,
  scopes: string[],
  revoked = false,
): DemoKey {
  return { label, api, key: composeKey(api, random), random, scopes, revoked };
}

export const DEMO_KEYS: DemoKey[] = [
  demo("findings, vessel A (MV Nordic Star)", "findings", "DemoVesselAFindingsKey0000000001", [
    "read",
  ]),
  demo("company, read", "company", "DemoCompanyReadKey00000000000001", ["read"]),
  demo("company, read+provisioning", "company", "DemoCompanyProvisioningKey000001", [
    "read",
    "provisioning",
  ]),
  demo(
    "findings, vessel A, REVOKED",
    "findings",
    "DemoRevokedFindingsKey0000000001",
    ["read"],
    true,
  ),
];

/**
 * Stores the demo keys as the console would (hash as the id, display prefix), created by "seed".
 */
export async function writeDemoKeys(
  companyId: string,
  projectId: string,
  createdAt: Timestamp,
): Promise<void> {
  for (const demo of DEMO_KEYS) {
    const data = newApiKeyData(
      {
        api: demo.api,
        companyId,
        projectId: demo.api === "findings" ? projectId : null,
        scopes: demo.scopes,
        name: `Demo: ${demo.label}`,
        prefix: displayPrefix(demo.key),
        createdBy: "seed",
      },
      createdAt,
    );
    await apiKeysCollection()
      .doc(hashKey(demo.key))
      .set(demo.revoked ? { ...data, revokedAt: createdAt, revokedBy: "seed" } : data);
  }
}
