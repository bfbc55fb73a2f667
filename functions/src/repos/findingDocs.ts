import { z } from "../http/zod";
import { flag, geoPoint, nullableNumber, nullableString, text, timestamp } from "./stored";

/** Stored shapes of `projects/{p}/findings/{f}` and its subcollections (firestore-schema.md). */
const checklistItem = z.object({
  title: text,
  done: flag,
  dateCreated: timestamp,
  dateClosed: timestamp,
  createdBy: nullableString,
  createdByName: nullableString,
});

const lastComment = z
  .object({
    text,
    authorId: nullableString,
    authorName: nullableString,
    createdAt: timestamp,
    systemTriggered: flag,
  })
  .nullish()
  .transform((v) => v ?? null);

export const locationImage = z
  .object({
    storageRef: z.unknown(),
    fileName: nullableString,
    blurHash: nullableString,
    capturedAt: timestamp,
    uploadedAt: timestamp,
    uploadedBy: nullableString,
    uploadedByName: nullableString,
    uploadedByCompanyName: nullableString,
  })
  .nullish()
  .transform((v) => v ?? null);

export const findingDoc = z.object({
  findingNumber: z.number().int().nullish().transform((v) => v ?? null),
  title: text,
  description: text,
  correctiveMeasure: text,
  locationDetails: text,
  status: nullableString,
  previousStatus: nullableString,
  priority: nullableString,
  system: nullableString,
  dateOfFinding: timestamp,
  dateCreated: timestamp,
  lastEditedDate: timestamp,
  startDate: timestamp,
  dueDate: timestamp,
  locationLevel1: nullableString,
  locationLevel2: nullableString,
  locationLevel3: nullableString,
  locationLevel4: nullableString,
  locationLevel5: nullableString,
  locationLatLng: geoPoint,
  numericValue: nullableNumber,
  nfcInformation: nullableString,
  shipyardReference: nullableString,
  inspectionId: nullableString,
  createdBy: nullableString,
  createdByName: nullableString,
  createdByCompanyName: nullableString,
  lastEditedBy: nullableString,
  lastEditedByName: nullableString,
  lastEditedByCompanyName: nullableString,
  projectId: nullableString,
  companyId: nullableString,
  assigneeIds: z.array(z.string()).nullish().transform((v) => v ?? []),
  checklist: z.array(checklistItem).nullish().transform((v) => v ?? []),
  lastComment,
  locationDetailsImage: locationImage,
  markers: z.array(z.unknown()).nullish().transform((v) => v ?? []),
  hidden: flag,
});
export type FindingDoc = z.output<typeof findingDoc> & { id: string };

const mediaItem = z.object({
  kind: z.enum(["image", "video", "audio", "file"]),
  storageRef: z.unknown(),
  fileName: nullableString,
  blurHash: nullableString,
  capturedAt: timestamp,
  uploadedAt: timestamp,
});

export const commentDoc = z.object({
  text,
  createdAt: timestamp,
  authorId: nullableString,
  authorName: nullableString,
  systemTriggered: flag,
  media: z.array(mediaItem).nullish().transform((v) => v ?? []),
});
export type CommentDoc = z.output<typeof commentDoc> & { id: string };

export const fileDoc = z.object({
  title: nullableString,
  descriptionShort: nullableString,
  descriptionLong: nullableString,
  fileName: nullableString,
  contentKind: z.enum(["image", "video", "audio", "file"]).nullish().transform((v) => v ?? "file"),
  customIndex: z.number().int().nullish().transform((v) => v ?? null),
  folderPath: nullableString,
  blurHash: nullableString,
  excludedFromReports: flag,
  capturedAt: timestamp,
  uploadedAt: timestamp,
  uploadedBy: nullableString,
  uploadedByName: nullableString,
  uploadedByCompanyName: nullableString,
  storageRef: z.unknown(),
  deleted: flag,
});
export type FileDoc = z.output<typeof fileDoc> & { id: string };
