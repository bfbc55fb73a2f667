import { createHash, generateKeyPairSync, verify, type KeyObject } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A throwaway test service account: its key signs, its public key verifies. */
function testServiceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    credentials: {
      client_email: "test-signer@demo-safety-apis.iam.gserviceaccount.com",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    },
    publicKey,
  };
}

type Credentials = ReturnType<typeof testServiceAccount>["credentials"];

/**
 * Names the signer's key file for this test file, as a deployment outside Google Cloud gives the
 * signer its key (`GOOGLE_APPLICATION_CREDENTIALS`). Call it at the top, before a link is signed:
 * the signing client is made once per test file's modules. The file is removed after the tests.
 */
export function useKeyFile(credentials: Credentials): void {
  const dir = mkdtempSync(join(tmpdir(), "signer-"));
  const file = join(dir, "key.json");
  writeFileSync(file, JSON.stringify({ type: "service_account", ...credentials }));
  process.env.GOOGLE_APPLICATION_CREDENTIALS = file;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}

/** Makes a throwaway service account the signer of this test file; its public key verifies. */
export function useTestServiceAccount() {
  const account = testServiceAccount();
  useKeyFile(account.credentials);
  return account;
}

/**
 * Checks a V4 signed URL (GOOG4-RSA-SHA256) the way Cloud Storage does: rebuild the canonical
 * request from the URL, hash it into the string-to-sign, verify the signature.
 */
export function verifyV4Url(url: string, publicKey: KeyObject) {
  const parsed = new URL(url);
  const rawQuery = parsed.search.slice(1);
  const params = new URLSearchParams(rawQuery);
  const signature = params.get("X-Goog-Signature");
  if (!signature) return { valid: false, params };
  const canonicalQuery = rawQuery
    .split("&")
    .filter((p) => !p.startsWith("X-Goog-Signature="))
    .sort()
    .join("&");
  const signedHeaders = params.get("X-Goog-SignedHeaders") ?? "host";
  const canonicalRequest = [
    "GET",
    parsed.pathname,
    canonicalQuery,
    `host:${parsed.host}`,
    "",
    signedHeaders,
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const [, scopeDate, region, service, terminator] = (params.get("X-Goog-Credential") ?? "").split(
    "/",
  );
  const stringToSign = [
    params.get("X-Goog-Algorithm"),
    params.get("X-Goog-Date"),
    [scopeDate, region, service, terminator].join("/"),
    createHash("sha256").update(canonicalRequest).digest("hex"),
  ].join("\n");
  const valid = verify(
    "RSA-SHA256",
    Buffer.from(stringToSign),
    publicKey,
    Buffer.from(signature, "hex"),
  );
  return { valid, params, pathname: parsed.pathname, host: parsed.host };
}
