import { paged, pageOf, WINDOW_RULE, windowedListQuery } from "../http/paging";
import { defineRoute } from "../http/route";
import { isoTimestamp, z } from "../http/zod";
import { KEY_APIS } from "../lib/apiKeyFormat";
import { oneOf } from "../lib/oneOf";
import { queryAuditLogs, type AuditDoc } from "../repos/auditLogs";
import { toIso } from "../repos/storedFields";
import { AUDIT_PAGE_EXAMPLE } from "./examples";

const CLASSES = ["privileged", "operational"] as const;

const auditEntrySchema = z
  .object({
    id: z.string(),
    at: isoTimestamp,
    class: z.enum(CLASSES).openapi({
      description:
        "`privileged`: key and access changes, provisioning, anything done with the provisioning scope (kept 2 years). `operational`: reads (kept 90 days).",
    }),
    action: z.string().openapi({
      example: "api.request",
      description:
        "`api.request`, `api.refused` (refused requests, aggregated), `api_key.created`, `api_key.revoked`, `api_access.changed`, `rate_limits.changed`, …",
    }),
    actor: z
      .object({
        type: z.enum(["api_key", "user", "system"]),
        id: z.string().nullable().openapi({
          description:
            "A key's 12-character prefix (never the key or its hash), a user id, or the operator.",
        }),
        name: z.string().nullable(),
      })
      .openapi("AuditActor"),
    api: z.enum(KEY_APIS).nullable(),
    method: z.string().nullable(),
    path: z.string().nullable(),
    status: z.number().int().nullable(),
    request_id: z.string().nullable().openapi({
      description: "The id the API gave the request (`X-Request-Id` of its response).",
    }),
    client_request_id: z
      .string()
      .nullable()
      .openapi({ description: "The caller's own `X-Request-Id`, when it sent a usable one." }),
    count: z.number().int().min(1).openapi({
      description:
        "How many requests the entry stands for: 1, except `api.refused` entries (all refusals of one key with one status in one UTC minute).",
    }),
    project_id: z.string().nullable(),
    target: z.object({ type: z.string(), id: z.string() }).nullable().openapi({
      description:
        "What a change concerns, e.g. `{ type: api_key, id: <prefix> }`; null for plain requests.",
    }),
  })
  .openapi("AuditEntry");
type AuditEntryOut = z.infer<typeof auditEntrySchema>;

export function toAuditEntry(doc: AuditDoc): AuditEntryOut {
  return {
    id: doc.id,
    at: toIso(doc.at) ?? "",
    class: oneOf(CLASSES, doc.class) ?? "operational",
    action: doc.action,
    actor: {
      type: oneOf(["api_key", "user", "system"] as const, doc.actor?.type) ?? "system",
      id: doc.actor?.id ?? null,
      name: doc.actor?.name ?? null,
    },
    api: oneOf(KEY_APIS, doc.api),
    method: doc.method,
    path: doc.path,
    status: doc.status !== null && Number.isInteger(doc.status) ? doc.status : null,
    request_id: doc.requestId,
    client_request_id: doc.clientRequestId,
    count: doc.count !== null && Number.isInteger(doc.count) && doc.count >= 1 ? doc.count : 1,
    project_id: doc.projectId,
    target: doc.target?.type && doc.target.id ? { type: doc.target.type, id: doc.target.id } : null,
  };
}

const query = windowedListQuery(
  { from: "Inclusive lower bound on `at`.", to: "Exclusive upper bound on `at`." },
  {
    class: z
      .enum(CLASSES, { message: "must be privileged or operational" })
      .optional()
      .openapi({ description: "Only entries of this class." }),
  },
);

const responseSchema = pageOf(auditEntrySchema, "AuditEntryPage");
export type ListAuditLogsResponse = z.infer<typeof responseSchema>;

export const listAuditLogs = defineRoute({
  method: "get",
  path: "/v1/audit-logs",
  operationId: "listAuditLogs",
  summary: "The company's audit trail, newest first",
  description:
    "Every API request, key and access change of the company, newest first (by `at`, then id). `from` is inclusive and `to` " +
    "exclusive, both on `at`. Entries past their retention (90 days operational, 2 years privileged) are never returned, even " +
    "before they are deleted. A page may be short and still have a `next_page_token`; page until it is null.",
  tags: ["Safety data"],
  scope: "read",
  query,
  rules: [WINDOW_RULE],
  success: {
    description: "One page of audit entries.",
    schema: responseSchema,
    example: AUDIT_PAGE_EXAMPLE,
  },
  errors: ["invalid_request"],
  handler: async ({ query: q, principal, tokenScope }) => {
    const { companyId } = principal;
    const { data, next_page_token } = await paged(q, tokenScope, (after, limit) =>
      queryAuditLogs(companyId, {
        class: q.class,
        from: q.from,
        to: q.to,
        after,
        limit,
        now: new Date(),
      }),
    );
    return { data: data.map(toAuditEntry), next_page_token } satisfies ListAuditLogsResponse;
  },
});
