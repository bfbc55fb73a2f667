import { FirebaseError } from "firebase/app";
import { httpsCallable } from "firebase/functions";
import type { Services } from "./env";

/** The console's callables (docs/api-behaviour.md, "Key management for the app's console"). */
export type Api = "findings" | "company";
export const API_NAMES: Record<Api, string> = {
  findings: "Vessel findings export",
  company: "Company API",
};

export interface KeyView {
  name: string;
  prefix: string;
  api: Api;
  projectId: string | null;
  scopes: string[];
  createdBy: string;
  /** The creator as the audit trail names people (an address they cannot edit). */
  createdByName?: string;
  createdAt: string | null;
  revokedBy: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  rateLimits?: { perMinute: number; perDay: number };
  requestsToday?: number | null;
}
export interface NewKey extends KeyView {
  key: string;
}
export interface AuditEntry {
  id: string;
  at: string | null;
  class: string | null;
  action: string;
  who: string;
  what: string;
  result: string;
}
export type Expiry = "now" | "1h" | "24h" | "7d";

export function callables({ functions }: Services) {
  const call =
    <I, O>(name: string) =>
    async (input: I): Promise<O> =>
      (await httpsCallable<I, O>(functions, name)(input)).data;
  return {
    setApiAccess: call<{ companyId: string; api: Api; enabled: boolean }, unknown>("setApiAccess"),
    listApiKeys: call<{ companyId: string; api: Api }, { keys: KeyView[] }>("listApiKeys"),
    createApiKey: call<
      { companyId: string; api: Api; name: string; projectId?: string; scopes?: string[] },
      NewKey
    >("createApiKey"),
    revokeApiKey: call<{ companyId: string; prefix: string }, KeyView>("revokeApiKey"),
    rollApiKey: call<
      { companyId: string; prefix: string; expiresIn: Expiry },
      NewKey & { rolled: KeyView }
    >("rollApiKey"),
    apiKeyUsage: call<
      { companyId: string; prefix: string },
      { days: Array<{ date: string; requests: number }> }
    >("apiKeyUsage"),
    listAuditTrail: call<
      { companyId: string; class?: string; pageToken?: string; limit?: number },
      { entries: AuditEntry[]; nextPageToken: string | null }
    >("listAuditTrail"),
  };
}
export type Callables = ReturnType<typeof callables>;

const WHO_MANAGES =
  "API keys are managed by your company's owner holding the Key User role, or by a platform " +
  "Admin; API access is switched on or off by a platform Admin only.";

/** The server's message as one sentence: without the status the SDK appends (` [400]`). */
const sentence = (message: string) => `${message.replace(/\s*\[\d{3}\]$/, "").replace(/\.$/, "")}.`;

/** What went wrong, in words a person acts on (never a bare error code). */
export function inWords(err: unknown): string {
  const code = err instanceof FirebaseError ? err.code.replace(/^functions\//, "") : "";
  const message = err instanceof Error ? err.message : "";
  switch (code) {
    case "permission-denied":
      return (
        `You are not allowed to do this. ${WHO_MANAGES} ` +
        "Ask your company's owner if you need a key."
      );
    case "unauthenticated":
      return "Your session has ended. Sign in again.";
    case "invalid-argument":
      return `Please check what you entered: ${sentence(message)}`;
    case "not-found":
    case "resource-exhausted":
    case "failed-precondition":
      return sentence(message);
    case "auth/invalid-credential":
    case "auth/wrong-password":
    case "auth/user-not-found":
    case "auth/invalid-email":
      return "The e-mail address or the password is not right. Check both and try again.";
    case "auth/too-many-requests":
      return "Too many attempts. Wait a minute, then try again.";
    case "auth/network-request-failed":
    case "unavailable":
      return "The console cannot reach the service. Check your connection and try again.";
    default:
      if (code.startsWith("auth/") && message.includes("deactivated"))
        return "This account has been deactivated. Ask your company's owner.";
      return (
        "Something went wrong on our side. Try again in a moment; " +
        "if it keeps happening, tell your administrator."
      );
  }
}

export const WHO_MANAGES_KEYS = WHO_MANAGES;

/**
 * Whether the service refused this person (not a failure): the page then says why and whom to
 * ask.
 */
export const isRefusal = (err: unknown) =>
  err instanceof FirebaseError && err.code.replace(/^functions\//, "") === "permission-denied";
