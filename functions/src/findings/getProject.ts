import { defineProjectRoute } from "../http/route";
import { z } from "../http/zod";
import { toIso } from "../lib/dates";
import { toPlainJson } from "../lib/plainJson";
import type { ProjectDoc } from "../repos/companies";
import { PROJECT_EXAMPLE } from "./examples";
import { projectSchema, type Project } from "./schemas";

const responseSchema = z.object({ data: projectSchema });
export type GetProjectResponse = z.infer<typeof responseSchema>;

const freeForm = (value: Record<string, unknown>) => toPlainJson(value) as Record<string, unknown>;

/** The allow-list mapping of the spec's Project record. */
function toProject(doc: ProjectDoc): Project {
  return {
    id: doc.id,
    name: doc.name ?? "",
    company_id: doc.companyId,
    customer_project_id: doc.customerProjectId,
    status: doc.status,
    is_closed: doc.isClosed,
    date_created: toIso(doc.dateCreated),
    current_milestone: doc.currentMilestone,
    project_progress: doc.projectProgress,
    findings_counter: doc.findingsCounter,
    findings_counter_is_corrected: doc.findingsCounterIsCorrected,
    inspections_counter: doc.inspectionsCounter,
    issues_counter: doc.issuesCounter,
    vessel: freeForm(doc.vessel),
    classification: freeForm(doc.classification),
    propulsion: freeForm(doc.propulsion),
    survey: freeForm(doc.survey),
    claim: freeForm(doc.claim),
    client: freeForm(doc.client),
  };
}

export const getProject = defineProjectRoute({
  method: "get",
  path: "/v1/project",
  operationId: "getProject",
  summary: "The key's project (vessel)",
  tags: ["Project"],
  query: z.object({}).strict(),
  success: {
    description: "The project the key is bound to.",
    schema: responseSchema,
    example: PROJECT_EXAMPLE,
  },
  errors: ["invalid_request"],
  handler: async ({ principal }) => {
    // Authentication read the project fresh for this request and proved it is the key's.
    return { data: toProject(principal.project) } satisfies GetProjectResponse;
  },
});
