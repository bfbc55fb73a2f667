import {
  anyValue,
  compactList,
  flag,
  geoPoint,
  hiddenFlag,
  nullableInteger,
  nullableNumber,
  nullableString,
  oneOf,
  storedList,
  storedMap,
  stringList,
  text,
  timestamp,
  type Stored,
} from "./stored";

/** Stored shapes of `projects/{p}/findings/{f}` and its subcollections (docs/firestore-data.md). */
const checklistItem = storedMap({
  title: text,
  done: flag,
  dateCreated: timestamp,
  dateClosed: timestamp,
  createdBy: nullableString,
  createdByName: nullableString,
});

const lastComment = storedMap({
  text,
  authorId: nullableString,
  authorName: nullableString,
  createdAt: timestamp,
  systemTriggered: flag,
});

export const locationImage = storedMap({
  storageRef: anyValue,
  fileName: nullableString,
  blurHash: nullableString,
  capturedAt: timestamp,
  uploadedAt: timestamp,
  uploadedBy: nullableString,
  uploadedByName: nullableString,
  uploadedByCompanyName: nullableString,
});

// An unknown kind is offered as a plain file rather than dropped.
const contentKind = oneOf(["image", "video", "audio", "file"], "file");

export const findingShape = {
  findingNumber: nullableInteger,
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
  assigneeIds: stringList,
  /** Unusable items stay as null holes, so every item keeps its position as `index`. */
  checklist: storedList(checklistItem),
  lastComment,
  locationDetailsImage: locationImage,
  markers: storedList(anyValue),
  hidden: hiddenFlag,
};
export type FindingDoc = Stored<typeof findingShape> & { id: string };

const mediaItem = storedMap({
  kind: contentKind,
  storageRef: anyValue,
  fileName: nullableString,
  blurHash: nullableString,
  capturedAt: timestamp,
  uploadedAt: timestamp,
});

export const commentShape = {
  text,
  createdAt: timestamp,
  authorId: nullableString,
  authorName: nullableString,
  systemTriggered: flag,
  media: compactList(mediaItem),
};
export type CommentDoc = Stored<typeof commentShape> & { id: string };

export const fileShape = {
  title: nullableString,
  descriptionShort: nullableString,
  descriptionLong: nullableString,
  fileName: nullableString,
  contentKind,
  customIndex: nullableInteger,
  folderPath: nullableString,
  blurHash: nullableString,
  excludedFromReports: flag,
  capturedAt: timestamp,
  uploadedAt: timestamp,
  uploadedBy: nullableString,
  uploadedByName: nullableString,
  uploadedByCompanyName: nullableString,
  storageRef: anyValue,
  // Like `hidden`: a `deleted` that is not a boolean excludes; never offer what may be gone.
  deleted: hiddenFlag,
};
export type FileDoc = Stored<typeof fileShape> & { id: string };
