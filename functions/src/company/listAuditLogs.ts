import { WINDOW_RULE, windowedListQuery } from "../http/listParams";
import { paged, pageOf } from "../http/paging";
import { defineRoute } from "../http/route";
import { z } from "../http/zod";
import { KEY_APIS } from "../lib/apiKeyFormat";
import { toIso } from "../lib/dates";
import { oneOf } from "../lib/oneOf";
import { queryAuditLogs, type AuditDoc } from "../repos/auditReads";
import { AUDIT_PAGE_EXAMPLE } from "./examples";
import { AUDIT_CLASSES, auditEntrySchema, type AuditEntry } from "./schemas";

/** Stored camelCase → exported snake_case. */
function toAuditEntry(doc: AuditDoc): AuditEntry {
  return {
    id: doc.id,
    at: toIso(doc.at) ?? "",
    class: oneOf(AUDIT_CLASSES, doc.class) ?? "operational",
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
      .enum(AUDIT_CLASSES, { message: "must be privileged or operational" })
      .optional()
      .openapi({ description: "Only entries of this class." }),
  },
);

const responseSchema = pageOf(auditEntrySchema, "AuditEntryPage");

export const listAuditLogs = defineRoute({
  method: "get",
  path: "/v1/audit-logs",
  operationId: "listAuditLogs",
  summary: "The company's audit trail, newest first",
  description:
    "Every API request, key and access change of the company, newest first (by `at`, " +
    "then id). `from` is inclusive and `to` " +
    "exclusive, both on `at`. Entries past their retention (90 days operational, 2 years " +
    "privileged) are never returned, even " +
    "before they are deleted. A page may be short and still have a `next_page_token`; " +
    "page until it is null.",
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
    return { data: data.map(toAuditEntry), next_page_token } satisfies z.infer<
      typeof responseSchema
    >;
  },
});
