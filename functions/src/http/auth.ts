import type { Request } from "express";
import type { DocumentSnapshot } from "firebase-admin/firestore";
import { DEFAULT_RATE_LIMITS } from "../config/constants";
import { hashKey, KEY_PREFIX, parseKey, type KeyApi } from "../lib/apiKeyFormat";
import { setBounded } from "../lib/bounded";
import { MINUTE_MS } from "../lib/dates";
import {
  readKeyDocuments,
  readOwnerDocuments,
  type ApiKeyDoc,
  type KeyOwners,
} from "../repos/apiKeys";
import {
  AccessError,
  assertCompanyAccess,
  assertFindingsAccess,
  assertKeyUsable,
} from "../services/keyAccess";
import { effectiveLimits, limitScopeOf, shardCount } from "../services/rateLimit";
import type { AuditSubject, Principal } from "./context";
import { ApiError, forbidden, unauthorized } from "./errors";
import {
  blockedFor,
  clientAddress,
  FORBIDDEN_MS,
  noteFailure,
  noteSuccess,
  rememberedRefusal,
  rememberRefusal,
} from "./refusalMemory";

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** The presented key, or a 401 naming what is wrong with the header (never echoing it). */
function presentedKey(req: Request, expected: KeyApi): string {
  const header = req.get("authorization");
  if (!header)
    throw unauthorized("Missing API key: send the header `Authorization: Bearer <API_KEY>`.");
  const match = BEARER.exec(header);
  if (!match) throw unauthorized("Malformed Authorization header: expected `Bearer <API_KEY>`.");
  const api = parseKey(match[1]);
  if (!api) throw unauthorized("The API key is malformed (wrong length, prefix or checksum).");
  if (api !== expected) {
    throw unauthorized(
      `This key belongs to another API; this API takes keys starting with ` +
        `\`${KEY_PREFIX[expected]}\`.`,
    );
  }
  return match[1];
}

function subjectOf(doc: ApiKeyDoc): AuditSubject {
  return {
    companyId: doc.companyId,
    projectId: doc.projectId,
    actor: { type: "api_key", id: doc.prefix, name: doc.name },
    privileged: doc.scopes.includes("provisioning"),
  };
}

/**
 * A key's owners, name and scopes never change, so an instance remembers them: it then reads the
 * key, its counter, company and project in one round trip (still fresh on every request), and can
 * attribute a request whose reads failed. It also remembers how many shards the key's counter had
 * at its last request, so that read can take the random shard the count will start from.
 */
const knownKeys = new Map<string, { owners: KeyOwners; subject: AuditSubject; shards: number }>();
const MAX_KNOWN = 10_000;

export type Authentication =
  | { ok: true; principal: Principal; counter: DocumentSnapshot }
  | { ok: false; error: unknown; subject: AuditSubject | null };

/**
 * Authenticates the request's key and checks the company's (and project's) access on documents
 * read fresh, so revocation and access switches apply to the very next request. A refusal
 * carries the key's audit subject when the key was recognised, so it lands in that company's
 * trail; so does a failed read of a key this instance knows (the failure is the error).
 */
export async function authenticate(req: Request, api: KeyApi): Promise<Authentication> {
  const address = clientAddress(req);
  let subject: AuditSubject | null = null;
  let keyHash: string | null = null;
  try {
    keyHash = hashKey(presentedKey(req, api));
    const wait = blockedFor(address, keyHash);
    if (wait) {
      throw new ApiError(
        "rate_limited",
        `Too many failed authentications from this address; retry after ${wait} s.`,
        { "Retry-After": String(wait) },
      );
    }
    const known = knownKeys.get(keyHash);
    subject = known?.subject ?? null;
    const remembered = rememberedRefusal(keyHash);
    if (remembered) return { ok: false, ...remembered };
    const shard = Math.floor(Math.random() * (known?.shards ?? 1));
    const { key, counter, owned } = await readKeyDocuments(keyHash, known?.owners, shard);
    subject = key?.api === api ? subjectOf(key) : null;
    assertKeyUsable(key, api);
    const owners = { companyId: key.companyId, projectId: key.projectId };
    const kept = { owners, subject: subjectOf(key), shards: known?.shards ?? 1 };
    setBounded(knownKeys, keyHash, kept, MAX_KNOWN);
    const sameOwners =
      known?.owners.companyId === owners.companyId && known.owners.projectId === owners.projectId;
    const { company, project } = owned && sameOwners ? owned : await readOwnerDocuments(owners);
    if (api === "findings") assertFindingsAccess(key, company, project);
    else assertCompanyAccess(company);
    noteSuccess(keyHash);
    const { perMinute, perDay } = effectiveLimits(
      DEFAULT_RATE_LIMITS,
      company?.rateLimits,
      key.rateLimits,
      limitScopeOf(key.scopes),
    );
    const limits = { perMinute, perDay };
    kept.shards = shardCount(limits);
    return {
      ok: true,
      principal: { ...subjectOf(key), keyHash, scopes: key.scopes, limits, project },
      counter,
    };
  } catch (err) {
    if (!(err instanceof AccessError)) return { ok: false, error: err, subject };
    // A refusal after the key's documents were read: it counts against the address and is
    // remembered.
    const error =
      err.kind === "unauthenticated" ? unauthorized(err.message) : forbidden(err.message);
    if (err.kind === "unauthenticated") noteFailure(address);
    if (keyHash)
      rememberRefusal(
        keyHash,
        error,
        subject,
        err.kind === "unauthenticated" ? MINUTE_MS : FORBIDDEN_MS,
      );
    return { ok: false, error, subject };
  }
}
