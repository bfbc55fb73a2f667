import type { DocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../config/firebase";
import { parseSnapshot, type Stored } from "./stored";
import {
  flag,
  freeForm,
  hiddenFlag,
  nullableNumber,
  nullableString,
  timestamp,
} from "./storedFields";

/**
 * `projects/{projectId}`. Only the allow-listed fields are parsed at all: budget, hours,
 * drawings and internal notes never enter the process's typed data.
 */
export const projectShape = {
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
  // Like `hidden`: a `deleted` that is not a boolean counts as deleted (fail closed).
  deleted: hiddenFlag,
};
export type ProjectDoc = Stored<typeof projectShape> & { id: string };

export const projectRef = (projectId: string) => firestore().collection("projects").doc(projectId);

export const projectOf = (snap: DocumentSnapshot): ProjectDoc | null =>
  snap.exists ? parseSnapshot(projectShape, snap) : null;

/**
 * A project a key of this company may be bound to: it exists, is not deleted, and is the company's.
 */
export function isLiveProjectOf(
  project: Pick<ProjectDoc, "deleted" | "companyId"> | null,
  companyId: string,
): boolean {
  return Boolean(project && !project.deleted && project.companyId === companyId);
}
