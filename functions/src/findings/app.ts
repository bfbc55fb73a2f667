import { createApp } from "../http/createApp";
import { findingsDelta } from "./findingsDelta";
import { getAttachmentContent } from "./getAttachmentContent";
import { getProject } from "./getProject";
import { listAttachments } from "./listAttachments";
import { listComments } from "./listComments";
import { listFindings } from "./listFindings";
import { listVesselAttachments } from "./listVesselAttachments";
import { listVesselComments } from "./listVesselComments";

export const FINDINGS_API = {
  api: "findings" as const,
  title: "Vessel Findings Export API",
  version: "1.0.0",
  openapi: "3.0.3" as const,
  description:
    "Read-only export of one vessel's findings, checklists, comment threads and attachments. " +
    "One key per vessel: `Authorization: Bearer vfe_…`. Limits: 60 requests per key per " +
    "UTC minute and " +
    "10,000 per UTC day (fixed windows; refused requests do not count), `429` with " +
    "`Retry-After` beyond them.",
  defaultBaseUrl: "http://127.0.0.1:5001/demo-safety-apis/europe-west1/findingsApi",
  routes: [
    getProject,
    listFindings,
    findingsDelta,
    listComments,
    listAttachments,
    getAttachmentContent,
    listVesselComments,
    listVesselAttachments,
  ],
};

export const createFindingsApp = () => createApp(FINDINGS_API);
