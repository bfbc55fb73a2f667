import { GeoPoint, type BulkWriter } from "firebase-admin/firestore";
import { firestore } from "../../config/firebase";
import { DEMO_PEOPLE } from "./people";
import { daysAgo, pad, Rng } from "./random";

const ACTION_VERBS = ["inspect", "replace", "clean", "paint", "test", "document"];

export const DEMO_BUCKET = "demo-safety-apis.firebasestorage.app";

/** A vessel of the demo data: its project, owner, size and the seed of its findings. */
export interface VesselPlan {
  projectId: string;
  companyId: string;
  name: string;
  findings: number;
  seed: number;
}

export const STATUSES = [
  "Open",
  "To be reviewed",
  "Closed",
  "Accepted as is",
  "Cancelled",
  "Shipyard confirmed rectification",
] as const;
const SYSTEMS = [
  "Main engine",
  "Ballast water",
  "Fire fighting",
  "Steering gear",
  "Hull",
  "Navigation",
];
const PRIORITIES = ["Low", "Medium", "High", "Critical"];
const LOCATIONS = ["Engine room", "Deck", "Bridge", "Cargo hold 2", "Accommodation"];

/** All three storageRef shapes of the contract, plus the two that cannot be signed. */
function storageRef(rng: Rng, path: string, n: number): string {
  if (n % 97 === 13) return `gs://someone-elses-bucket/${path}`;
  if (n % 89 === 7) return "ftp://files.example.com/not-a-storage-reference";
  switch (rng.int(0, 2)) {
    case 0:
      return `gs://${DEMO_BUCKET}/${path}`;
    case 1:
      return (
        `https://firebasestorage.googleapis.com/v0/b/${DEMO_BUCKET}/o/` +
        `${encodeURIComponent(path)}?alt=media&token=demo-token-${n}`
      );
    default:
      return path;
  }
}

function person(rng: Rng) {
  const p = rng.pick(DEMO_PEOPLE);
  return { id: p.uid, name: p.name, email: `${p.uid}@private-canary.example` };
}

export function writeFinding(writer: BulkWriter, plan: VesselPlan, rng: Rng, n: number): void {
  const db = firestore();
  const id = `${plan.projectId.replace("demo-", "")}-f${pad(n)}`;
  const base = `projects/${plan.projectId}/findings/${id}`;
  const creator = person(rng);
  const editor = person(rng);
  const createdDaysAgo = 380 - n;
  const status = n % 23 === 0 ? null : STATUSES[n % STATUSES.length];
  const checklist = Array.from({ length: rng.int(0, 5) }, (_, i) => {
    const by = person(rng);
    const done = rng.chance(0.5);
    return {
      title: `Action ${i + 1}: ${rng.pick(ACTION_VERBS)}`,
      done,
      dateCreated: daysAgo(createdDaysAgo, 30 + i),
      dateClosed: done ? daysAgo(createdDaysAgo - 2) : null,
      createdBy: by.id,
      createdByName: by.name,
      createdByEmail: by.email,
    };
  });
  const comments: Record<string, unknown>[] = [];
  let previous = "Open";
  for (let c = 0; c < rng.int(0, 5); c++) {
    const author = person(rng);
    const systemTriggered = c > 0 && rng.chance(0.4);
    const next = rng.pick(STATUSES);
    const media =
      !systemTriggered && rng.chance(0.4)
        ? [
            {
              kind: rng.pick(["image", "video", "audio", "file"] as const),
              storageRef: storageRef(rng, `${base}/comments/c${c}/media-${c}`, n * 10 + c),
              fileName: `media-${c}.bin`,
              blurHash: null,
              capturedAt: daysAgo(createdDaysAgo - c),
              uploadedAt: daysAgo(createdDaysAgo - c),
            },
          ]
        : undefined;
    comments.push({
      text: systemTriggered
        ? `Status changed from ${previous} to ${next}`
        : `Comment ${c + 1} on finding ${n}`,
      createdAt: daysAgo(createdDaysAgo - c, 60 * c),
      authorId: author.id,
      authorName: author.name,
      authorEmail: author.email,
      authorAvatarUrl: `https://avatars.private-canary.example/${author.id}.png`,
      systemTriggered,
      ...(media ? { media } : {}),
    });
    if (systemTriggered) previous = next;
  }
  const last = comments.at(-1);
  const hasImage = rng.chance(0.3);
  void writer.set(db.doc(base), {
    findingNumber: n,
    title: `${rng.pick(SYSTEMS)}: finding ${n}`,
    description: `Observed during inspection round ${1 + (n % 7)}.`,
    correctiveMeasure: rng.chance(0.5) ? "Repair and re-inspect." : "",
    locationDetails: rng.pick(LOCATIONS),
    status,
    previousStatus: status ? rng.pick(STATUSES) : null,
    priority: n % 17 === 0 ? null : rng.pick(PRIORITIES),
    system: n % 19 === 0 ? null : rng.pick(SYSTEMS),
    dateOfFinding: daysAgo(createdDaysAgo + 1),
    // A few findings from an old app generation have no creation date at all.
    dateCreated: n % 101 === 50 ? null : daysAgo(createdDaysAgo),
    lastEditedDate: daysAgo(Math.max(0, createdDaysAgo - rng.int(0, 30))),
    startDate: rng.chance(0.5) ? daysAgo(createdDaysAgo - 1) : null,
    dueDate: rng.chance(0.5) ? daysAgo(createdDaysAgo - 30) : null,
    locationLevel1: "Deck 3",
    locationLevel2: rng.pick(LOCATIONS),
    locationLevel3: null,
    locationLevel4: null,
    locationLevel5: null,
    locationLatLng: rng.chance(0.3) ? new GeoPoint(59.9 + rng.next(), 10.7 + rng.next()) : null,
    numericValue: rng.chance(0.3) ? rng.int(1, 100) : null,
    nfcInformation: null,
    shipyardReference: rng.chance(0.2) ? `SY-${pad(n)}` : null,
    inspectionId: `insp-${1 + (n % 7)}`,
    createdBy: creator.id,
    createdByName: creator.name,
    createdByCompanyName: "Nordic Shipping AS",
    createdByEmail: creator.email,
    lastEditedBy: editor.id,
    lastEditedByName: editor.name,
    lastEditedByCompanyName: "Nordic Shipping AS",
    lastEditedByEmail: editor.email,
    projectId: plan.projectId,
    companyId: plan.companyId,
    assigneeIds: [person(rng).id],
    checklist,
    lastComment: last
      ? {
          text: last.text,
          authorId: last.authorId,
          authorName: last.authorName,
          authorEmail: last.authorEmail,
          authorAvatarUrl: last.authorAvatarUrl,
          createdAt: last.createdAt,
          systemTriggered: last.systemTriggered,
        }
      : null,
    locationDetailsImage: hasImage
      ? {
          storageRef: storageRef(rng, `${base}/location.jpg`, n),
          fileName: "location.jpg",
          blurHash: "LKO2?U%2Tw=w]~RBVZRi};RPxuwH",
          capturedAt: daysAgo(createdDaysAgo),
          uploadedAt: daysAgo(createdDaysAgo),
          uploadedBy: creator.id,
          uploadedByName: creator.name,
          uploadedByCompanyName: "Nordic Shipping AS",
        }
      : null,
    markers: hasImage ? [{ x: 0.4, y: 0.6 }] : [],
    ...(n % 16 === 5 ? { hidden: true } : {}),
  });
  comments.forEach(
    (comment, c) => void writer.set(db.doc(`${base}/comments/c${pad(c, 2)}`), comment),
  );
  for (let f = 0; f < rng.int(0, 3); f++) {
    const uploader = person(rng);
    void writer.set(db.doc(`${base}/files/file${f}`), {
      title: `Photo ${f + 1}`,
      descriptionShort: "Close-up",
      descriptionLong: null,
      fileName: `photo-${f + 1}.jpg`,
      contentKind: rng.pick(["image", "image", "video", "file"]),
      customIndex: f === 2 ? null : 2 - f,
      folderPath: null,
      blurHash: null,
      excludedFromReports: f === 1,
      capturedAt: daysAgo(createdDaysAgo),
      uploadedAt: daysAgo(createdDaysAgo, f),
      uploadedBy: uploader.id,
      uploadedByName: uploader.name,
      uploadedByCompanyName: "Nordic Shipping AS",
      uploadedByEmail: uploader.email,
      storageRef: storageRef(rng, `${base}/files/photo-${f + 1}.jpg`, n * 3 + f),
      ...(f === 1 && n % 5 === 0 ? { deleted: true } : {}),
    });
  }
}
