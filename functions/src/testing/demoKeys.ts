import { composeKey, type KeyApi } from "../lib/apiKeyFormat";

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

function demo(label: string, api: KeyApi, random: string, scopes: string[], revoked = false): DemoKey {
  return { label, api, key: composeKey(api, random), random, scopes, revoked };
}

export const DEMO_KEYS: DemoKey[] = [
  demo("findings, vessel A (MV Nordic Star)", "findings", "DemoVesselAFindingsKey0000000001", ["read"]),
  demo("company, read", "company", "DemoCompanyReadKey00000000000001", ["read"]),
  demo("company, read+provisioning", "company", "DemoCompanyProvisioningKey000001", ["read", "provisioning"]),
  demo("findings, vessel A, REVOKED", "findings", "DemoRevokedFindingsKey0000000001", ["read"], true),
];
