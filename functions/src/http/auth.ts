import type { NextFunction, Request, Response } from "express";
import { DEFAULT_RATE_LIMITS } from "../config/constants";
import { hashKey, KEY_PREFIX, parseKey } from "../lib/apiKeyFormat";
import { findApiKey, type ApiKeyDoc } from "../repos/apiKeys";
import { prefetchUsage } from "../repos/apiKeyUsage";
import { findCompany } from "../repos/companies";
import { findProject } from "../repos/projects";
import { AccessError, assertCompanyAccess, assertFindingsAccess, assertKeyUsable } from "../services/access";
import { effectiveLimits } from "../services/rateLimit";
import { contextOf, type AuditSubject } from "./context";
import { clientAddress, blockedFor, noteFailure, noteSuccess } from "./addressGuard";
import { ApiError, forbidden, unauthorized } from "./errors";

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
 * Authenticates the request's key and checks the company's (and project's) access, reading
 * every document fresh. Sets the audit subject as soon as the key's company is known, so
 * refusals of a real key (revoked, access off) land in that company's audit trail.
 */
export async function authenticate(req: Request, res: Response, next: NextFunction): Promise<void> {
  const ctx = contextOf(res);
  const address = clientAddress(req);
  let keyHash: string | null = null;
  try {
    const key = presentedKey(req, ctx.api);
    keyHash = hashKey(key);
    const wait = blockedFor(address, keyHash);
    if (wait) {
      throw new ApiError("rate_limited", `Too many failed authentications from this address; retry after ${wait} s.`, { "Retry-After": String(wait) });
    }
    const doc = await findApiKey(keyHash);
    if (doc && doc.api === ctx.api) {
      ctx.auditSubject = subjectOf(doc);
      // Anything done with a provisioning key is privileged, refusals and reads included (kept 2 years).
      ctx.privileged = doc.scopes.includes("provisioning");
    }
    assertKeyUsable(doc, ctx.api);
    const usage = prefetchUsage(keyHash);
    usage.catch(() => undefined); // awaited by the rate limiter; never an unhandled rejection
    const [company, project] = await Promise.all([
      findCompany(doc.companyId),
      ctx.api === "findings" && doc.projectId ? findProject(doc.projectId) : Promise.resolve(null),
    ]);
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
