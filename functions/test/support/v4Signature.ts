import { createHash, generateKeyPairSync, verify, type KeyObject } from "node:crypto";

/** A throwaway test service account: its key signs, its public key verifies. */
export function testServiceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    credentials: {
      client_email: "test-signer@demo-safety-apis.iam.gserviceaccount.com",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    },
    publicKey,
  };
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
