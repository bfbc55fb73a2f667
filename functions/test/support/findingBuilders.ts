import { Timestamp, type DocumentData } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { randomId } from "./builders";

/**
 * Test builders for `projects/{p}/findings/{f}` and its subcollections, with canary private fields.
 */
export const CANARY = "private-canary";
export const at = (iso: string) => Timestamp.fromDate(new Date(iso));

export function findingData(
  projectId: string,
  companyId: string,
  overrides: DocumentData = {},
): DocumentData {
  return {
    findingNumber: 1,
    title: "Corroded ballast pipe",
    description: "Pitting on the flange.",
    correctiveMeasure: "",
    locationDetails: "",
    status: "Open",
    previousStatus: null,
    priority: "High",
    system: "Ballast water",
    dateOfFinding: null,
    dateCreated: at("2026-01-10T08:00:00Z"),
    lastEditedDate: at("2026-01-10T08:00:00Z"),
    startDate: null,
    dueDate: null,
    locationLevel1: null,
    locationLevel2: null,
    locationLevel3: null,
    locationLevel4: null,
    locationLevel5: null,
    locationLatLng: null,
    numericValue: null,
    nfcInformation: null,
    shipyardReference: null,
    inspectionId: null,
    createdBy: "u1",
    createdByName: "Creator",
    createdByCompanyName: "Co",
    createdByEmail: `creator@${CANARY}.example`,
    lastEditedBy: "u1",
    lastEditedByName: "Creator",
    lastEditedByCompanyName: "Co",
    lastEditedByEmail: `editor@${CANARY}.example`,
    projectId,
    companyId,
    assigneeIds: [],
    checklist: [],
    lastComment: null,
    locationDetailsImage: null,
    markers: [],
    ...overrides,
  };
}

export async function seedFinding(
  projectId: string,
  companyId: string,
  overrides: DocumentData = {},
  id = randomId("f"),
): Promise<string> {
  await firestore()
    .doc(`projects/${projectId}/findings/${id}`)
    .set(findingData(projectId, companyId, overrides));
  return id;
}

export async function seedComment(
  projectId: string,
  findingId: string,
  overrides: DocumentData = {},
  id = randomId("c"),
): Promise<string> {
  await firestore()
    .doc(`projects/${projectId}/findings/${findingId}/comments/${id}`)
    .set({
      text: "A comment",
      createdAt: at("2026-01-11T08:00:00Z"),
      authorId: "u2",
      authorName: "Commenter",
      authorEmail: `commenter@${CANARY}.example`,
      authorAvatarUrl: `https://${CANARY}.example/avatar.png`,
      systemTriggered: false,
      ...overrides,
    });
  return id;
}

export async function seedFile(
  projectId: string,
  findingId: string,
  overrides: DocumentData = {},
  id = randomId("file"),
): Promise<string> {
  await firestore()
    .doc(`projects/${projectId}/findings/${findingId}/files/${id}`)
    .set({
      title: "Photo",
      descriptionShort: null,
      descriptionLong: null,
      fileName: "photo.jpg",
      contentKind: "image",
      customIndex: null,
      folderPath: null,
      blurHash: null,
      excludedFromReports: false,
      capturedAt: null,
      uploadedAt: at("2026-01-12T08:00:00Z"),
      uploadedBy: "u3",
      uploadedByName: "Uploader",
      uploadedByCompanyName: "Co",
      uploadedByEmail: `uploader@${CANARY}.example`,
      storageRef: `projects/${projectId}/findings/${findingId}/photo.jpg`,
      ...overrides,
    });
  return id;
}
