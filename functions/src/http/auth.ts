import type { NextFunction, Request, Response } from "express";
import { DEFAULT_RATE_LIMITS } from "../config/constants";
import { hashKey, KEY_PREFIX, parseKey, type KeyApi } from "../lib/apiKeyFormat";
import { findApiKey, type ApiKeyDoc } from "../repos/apiKeys";
import { prefetchUsage } from "../repos/apiKeyUsage";
import { findCompany } from "../repos/companies";
import { findProject } from "../repos/projects";
import { AccessError, assertCompanyAccess, assertFindingsAccess, assertKeyUsable } from "../services/access";
import { effectiveLimits } from "../services/rateLimit";
import { contextOf, type AuditSubject } from "./context";
import { clientAddress, blockedFor, noteFailure, noteSuccess } from "./addressGuard";
import { ApiError, forbidden, unauthorized } from "./errors";
import { setBounded } from "../lib/bounded";

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** The presented key, or a 401 naming what is wrong with the header (never echoing it). */
function presentedKey(req: Request, expected: ReturnType<typeof contextOf>["api"]): string {
  const header = req.get("authorization");
  if (!header) throw unauthorized("Missing API key: send the header `Authorization: Bearer <API_KEY>`.");
  const match = BEARER.exec(header);
  if (!match) throw unauthorized("Malformed Authorization header: expected `Bearer <API_KEY>`.");
  const api = parseKey(match[1]);
  if (!api) throw unauthorized("The API key is malformed (wrong length, prefix or checksum).");
  if (api !== expected) {
    throw unauthorized(`This key belongs to another API; this API takes keys starting with \`${KEY_PREFIX[expected]}\`.`);
  }
  return match[1];
}

function subjectOf(doc: ApiKeyDoc): AuditSubject {
  return {
    companyId: doc.companyId,
    projectId: doc.projectId,
    actor: { type: "api_key", id: doc.prefix, name: doc.name },
  };
}

/**
 * Where a key belongs never changes (`companyId`, `projectId` are written once, at creation), so
 * an instance remembers it: the key, company and project documents are then read together, in
 * one round trip, and still fresh on every request (revocation and access switches apply to the
 * next request). Unknown to this instance: the key first, then the other two.
 */
const owners = new Map<string, { companyId: string; projectId: string | null }>();
const MAX_OWNERS = 10_000;

async function readFresh(keyHash: string, api: KeyApi, onKey: (doc: ApiKeyDoc | null) => void) {
  const projectOf = (owner: { projectId: string | null }) => (api === "findings" && owner.projectId ? findProject(owner.projectId) : Promise.resolve(null));
  const known = owners.get(keyHash);
  if (known) {
    // Settled together, so a failed company or project read still finds the key's audit subject set.
    const [doc, company, project] = await Promise.allSettled([findApiKey(keyHash), findCompany(known.companyId), projectOf(known)]);
    if (doc.status === "rejected") throw doc.reason;
    onKey(doc.value);
    if (company.status === "rejected") throw company.reason;
    if (project.status === "rejected") throw project.reason;
    if (!doc.value || (doc.value.companyId === known.companyId && doc.value.projectId === known.projectId)) {
      return { doc: doc.value, company: company.value, project: project.value };
    }
  }
  const doc = await findApiKey(keyHash);
  onKey(doc);
  if (!doc) return { doc, company: null, project: null };
  setBounded(owners, keyHash, { companyId: doc.companyId, projectId: doc.projectId }, MAX_OWNERS);
  const [company, project] = await Promise.all([findCompany(doc.companyId), projectOf(doc)]);
  return { doc, company, project };
}

/**
 * Authenticates the request's key and checks the company's (and project's) access, reading
 * every document fresh. Sets the audit subject as soon as the key's company is known, so
 * refusals of a real key (revoked, access off) land in that company's audit trail.
 */
export async function authenticate(req: Request, res: Response, next: NextFunction): Promise<void> {
  const ctx = contextOf(res);
  const address = clientAddress(req);
  try {
    const keyHash = hashKey(presentedKey(req, ctx.api));
    const wait = blockedFor(address, keyHash);
    if (wait) {
      throw new ApiError("rate_limited", `Too many failed authentications from this address; retry after ${wait} s.`, { "Retry-After": String(wait) });
    }
    // The key's usage counter, read alongside (a key this instance knows) or right after the key.
    const early = owners.has(keyHash) ? prefetchUsage(keyHash) : null;
    early?.catch(() => undefined);
    const { doc, company, project } = await readFresh(keyHash, ctx.api, (found) => {
      if (found && found.api === ctx.api) {
        ctx.auditSubject = subjectOf(found);
        // Anything done with a provisioning key is privileged, refusals and reads included (kept 2 years).
        ctx.privileged = found.scopes.includes("provisioning");
      }
    });
    assertKeyUsable(doc, ctx.api);
    const usage = early ?? prefetchUsage(keyHash);
    usage.catch(() => undefined); // awaited by the rate limiter; never an unhandled rejection
    if (ctx.api === "findings") assertFindingsAccess(doc, company, project);
    else assertCompanyAccess(company);
    ctx.principal = {
      ...subjectOf(doc),
      keyHash,
      scopes: doc.scopes,
      limits: effectiveLimits(DEFAULT_RATE_LIMITS, company?.rateLimits, doc.rateLimits),
      project: project ?? undefined,
      usage,
    };
    noteSuccess(keyHash);
    next();
  } catch (err) {
    const refused = err instanceof AccessError ? err.kind === "unauthenticated" : err instanceof ApiError && err.code === "unauthorized";
    if (refused) noteFailure(address);
    if (!ctx.auditSubject) ctx.rejection = err instanceof Error ? err.message : "authentication failed";
    next(err instanceof AccessError ? (err.kind === "unauthenticated" ? unauthorized(err.message) : forbidden(err.message)) : err);
  }
}
