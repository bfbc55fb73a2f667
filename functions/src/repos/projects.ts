import { firestore } from "../config/firebase";
import { z } from "../http/zod";
import { flag, freeForm, nullableNumber, nullableString, parseStored, timestamp } from "./stored";

/**
 * `projects/{projectId}`. Only the allow-listed fields are parsed at all: budget, hours,
 * drawings and internal notes never enter the process's typed data.
 */
export const projectDoc = z.object({
  companyId: nullableString,
  name: nullableString,
  customerProjectId: nullableString,
  status: nullableString,
  isClosed: flag,
  dateCreated: timestamp,
  currentMilestone: nullableString,
  projectProgress: nullableNumber,
  findingsCounter: nullableNumber,
  findingsCounterIsCorrected: nullableNumber,
  inspectionsCounter: nullableNumber,
  issuesCounter: nullableNumber,
  vessel: freeForm,
  classification: freeForm,
  propulsion: freeForm,
  survey: freeForm,
  claim: freeForm,
  client: freeForm,
  deleted: flag,
});
export type ProjectDoc = z.output<typeof projectDoc> & { id: string };

export const projectRef = (projectId: string) => firestore().collection("projects").doc(projectId);

export async function findProject(projectId: string): Promise<ProjectDoc | null> {
  const snap = await projectRef(projectId).get();
  if (!snap.exists) return null;
  return { id: snap.id, ...parseStored(projectDoc, snap.ref.path, snap.data()) };
}
