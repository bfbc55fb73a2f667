import { toIso } from "../lib/dates";
import type { AuditDoc } from "../repos/auditReads";

/**
 * An audit entry as a person reads it in the console: who, what, when and the result, in
 * words, beside the stored fields they come from.
 */
const API_NAMES: Record<string, string> = {
  findings: "the findings export",
  company: "the company API",
};

const CHANGES: Record<string, string> = {
  "api_key.created": "Created key",
  "api_key.revoked": "Revoked key",
  "api_key.rolled": "Rolled key",
  "rate_limits.changed": "Changed the rate limits of",
  "provisioning_settings.changed": "Changed the provisioning settings of",
};

const STATUS_WORDS: Record<number, string> = {
  401: "refused: unknown, revoked or expired key",
  403: "refused: access turned off or not allowed",
  429: "refused: rate limit reached",
};

function who(doc: AuditDoc): string {
  const { type, id, name } = doc.actor ?? {};
  if (type === "api_key") return `API key ${id ?? "?"}${name ? ` (${name})` : ""}`;
  if (type === "user") return name ?? id ?? "A user";
  return name ?? "The system";
}

/** A roll's successor and the old key's expiry (UTC, to the minute); older entries lack both. */
function rolledBy(doc: AuditDoc): string {
  const replaced = doc.successor ? `; key ${doc.successor} replaces it` : "";
  const until = doc.expiresAt
    ? `; it works until ${doc.expiresAt.toDate().toISOString().slice(0, 16).replace("T", " ")} UTC`
    : "";
  return replaced || until ? `${replaced}${until}` : " (a new key replaces it until its expiry)";
}

function what(doc: AuditDoc): string {
  const target = doc.target?.id ?? "";
  const api = doc.api ? API_NAMES[doc.api] : undefined;
  if (doc.action === "api.request") return `${doc.method ?? ""} ${doc.path ?? ""}`.trim();
  if (doc.action === "api.refused") {
    const n = doc.count ?? 1;
    return `${n} refused request${n === 1 ? "" : "s"}: ${doc.method ?? ""} ${doc.path ?? ""}`;
  }
  if (doc.action === "api_access.changed") {
    const state = doc.enabled === null ? "" : doc.enabled ? " on" : " off";
    return `Switched ${api ?? "an API"}${state}`;
  }
  const change = CHANGES[doc.action];
  const ofApi = api && doc.target?.type === "api_key" ? ` of ${api}` : "";
  if (doc.action === "api_key.rolled") return `${change} ${target}${ofApi}${rolledBy(doc)}`;
  if (change) return `${change} ${target}${ofApi}`;
  return `${doc.action.replace(/[._]/g, " ")}${target ? ` ${target}` : ""}`;
}

function result(doc: AuditDoc): string {
  const status = doc.status;
  if (status === null) return doc.action === "api.request" ? "no answer recorded" : "done";
  if (status < 400) return `succeeded (${status})`;
  return `${STATUS_WORDS[status] ?? "failed"} (${status})`;
}

export function auditView(doc: AuditDoc) {
  return {
    id: doc.id,
    at: toIso(doc.at),
    class: doc.class,
    action: doc.action,
    who: who(doc),
    what: what(doc),
    result: result(doc),
    status: doc.status,
    target: doc.target?.id ?? null,
    ...(doc.enabled === null ? {} : { enabled: doc.enabled }),
    ...(doc.expiresAt ? { expiresAt: toIso(doc.expiresAt) } : {}),
    ...(doc.successor ? { successor: doc.successor } : {}),
  };
}
