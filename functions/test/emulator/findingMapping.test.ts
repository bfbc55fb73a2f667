import { GeoPoint } from "firebase-admin/firestore";
import { createFindingsApp } from "../../src/findings/app";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { at, CANARY, seedComment, seedFile, seedFinding } from "../support/findingBuilders";
import { client } from "../support/http";
import { useTestServiceAccount } from "../support/v4Signature";

const findings = client(createFindingsApp());
useTestServiceAccount();
let companyId: string;
let projectId: string;
let key: string;
let findingId: string;

beforeAll(async () => {
  companyId = await seedCompany();
  projectId = await seedProject(companyId, {
    budget: { total: 5, note: `${CANARY}-budget` },
    hoursSpent: `${CANARY}-hours`,
    drawings: [`gs://${CANARY}-drawings/plan.pdf`],
    internalNotes: `${CANARY}-internal-notes`,
  });
  key = (
    await seedKey({ api: "findings", companyId, projectId, rateLimits: { perMinute: 10_000 } })
  ).key;
  findingId = await seedFinding(projectId, companyId, {
    findingNumber: 42,
    title: "T",
    description: "D",
    correctiveMeasure: "Fix",
    locationDetails: "Engine room",
    status: "To be reviewed",
    previousStatus: "Open",
    priority: "High",
    system: "Main engine",
    dateOfFinding: at("2026-01-01T00:00:00Z"),
    dateCreated: at("2026-01-02T00:00:00Z"),
    lastEditedDate: at("2026-01-03T00:00:00Z"),
    startDate: at("2026-01-04T00:00:00Z"),
    dueDate: at("2026-01-05T00:00:00Z"),
    locationLevel1: "L1",
    locationLevel2: "L2",
    locationLevel3: "L3",
    locationLevel4: "L4",
    locationLevel5: "L5",
    locationLatLng: new GeoPoint(59.91, 10.75),
    numericValue: 3.5,
    nfcInformation: "NFC",
    shipyardReference: "SY-1",
    inspectionId: "insp-1",
    assigneeIds: ["u7", "u8"],
    checklist: [
      {
        title: "Inspect",
        done: true,
        dateCreated: at("2026-01-02T01:00:00Z"),
        dateClosed: at("2026-01-02T02:00:00Z"),
        createdBy: "u1",
        createdByName: "Creator",
        createdByEmail: `c@${CANARY}.example`,
      },
      {
        title: "Repair",
        done: false,
        dateCreated: at("2026-01-02T03:00:00Z"),
        dateClosed: null,
        createdBy: "u1",
        createdByName: "Creator",
        createdByEmail: `c@${CANARY}.example`,
      },
      {
        title: "Re-test",
        done: false,
        dateCreated: null,
        dateClosed: null,
        createdBy: null,
        createdByName: null,
        createdByEmail: `c@${CANARY}.example`,
      },
    ],
    lastComment: {
      text: "Last",
      authorId: "u2",
      authorName: "Commenter",
      authorEmail: `a@${CANARY}.example`,
      authorAvatarUrl: `https://${CANARY}.example/a.png`,
      createdAt: at("2026-01-03T00:00:00Z"),
      systemTriggered: true,
    },
    locationDetailsImage: {
      storageRef: "loc.jpg",
      fileName: "loc.jpg",
      blurHash: null,
      capturedAt: null,
      uploadedAt: null,
      uploadedBy: "u1",
      uploadedByName: "Creator",
      uploadedByCompanyName: "Co",
    },
    markers: [{ x: 1 }, { x: 2 }],
  });
  await seedComment(projectId, findingId, {
    media: [
      {
        kind: "image",
        storageRef: "c.jpg",
        fileName: "c.jpg",
        blurHash: null,
        capturedAt: null,
        uploadedAt: null,
      },
    ],
  });
  await seedFile(projectId, findingId);
});

describe("the Finding record", () => {
  it("maps every field of the spec, checklist included", async () => {
    const res = await findings.get("/v1/findings", key);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toEqual({
      id: findingId,
      finding_number: 42,
      title: "T",
      description: "D",
      status: "To be reviewed",
      previous_status: "Open",
      priority: "High",
      system: "Main engine",
      date_of_finding: "2026-01-01T00:00:00.000Z",
      date_created: "2026-01-02T00:00:00.000Z",
      last_edited_date: "2026-01-03T00:00:00.000Z",
      start_date: "2026-01-04T00:00:00.000Z",
      due_date: "2026-01-05T00:00:00.000Z",
      corrective_measure: "Fix",
      location_details: "Engine room",
      location_level_1: "L1",
      location_level_2: "L2",
      location_level_3: "L3",
      location_level_4: "L4",
      location_level_5: "L5",
      location_lat_lng: { latitude: 59.91, longitude: 10.75 },
      numeric_value: 3.5,
      nfc_information: "NFC",
      shipyard_reference: "SY-1",
      created_by: "u1",
      created_by_name: "Creator",
      created_by_company_name: "Co",
      last_edited_by: "u1",
      last_edited_by_name: "Creator",
      last_edited_by_company_name: "Co",
      inspection_id: "insp-1",
      project_id: projectId,
      company_id: companyId,
      assignee_ids: ["u7", "u8"],
      checklist: [
        {
          index: 0,
          title: "Inspect",
          done: true,
          date_created: "2026-01-02T01:00:00.000Z",
          date_closed: "2026-01-02T02:00:00.000Z",
          created_by: "u1",
          created_by_name: "Creator",
        },
        {
          index: 1,
          title: "Repair",
          done: false,
          date_created: "2026-01-02T03:00:00.000Z",
          date_closed: null,
          created_by: "u1",
          created_by_name: "Creator",
        },
        {
          index: 2,
          title: "Re-test",
          done: false,
          date_created: null,
          date_closed: null,
          created_by: null,
          created_by_name: null,
        },
      ],
      checklist_total: 3,
      checklist_open: 2,
      last_comment: {
        text: "Last",
        author_name: "Commenter",
        author_id: "u2",
        created_at: "2026-01-03T00:00:00.000Z",
        system_triggered: true,
      },
      has_location_details_image: true,
      marker_count: 2,
    });
  });

  it("maps an older document with absent fields to nulls, empty lists and defaults", async () => {
    const { firestore } = await import("../../src/config/firebase");
    const id = await seedFinding(projectId, companyId);
    await firestore()
      .doc(`projects/${projectId}/findings/${id}`)
      .set({
        title: "Old",
        dateCreated: at("2020-01-01T00:00:00Z"),
        lastEditedDate: null,
        status: "legacy value",
      });
    const res = await findings.get("/v1/findings?to=2021-01-01", key);
    expect(res.body.data[0]).toMatchObject({
      id,
      title: "Old",
      description: "",
      status: null,
      finding_number: null,
      checklist: [],
      checklist_total: 0,
      checklist_open: 0,
      assignee_ids: [],
      last_comment: null,
      has_location_details_image: false,
      marker_count: 0,
      location_lat_lng: null,
    });
  });
});

describe("privacy", () => {
  it("no response of any endpoint contains a private field's value", async () => {
    const paths = [
      "/v1/project",
      "/v1/findings",
      "/v1/findings?updated_since=2020-01-01",
      `/v1/findings/${findingId}/comments`,
      `/v1/findings/${findingId}/attachments`,
      "/v1",
      "/v1/openapi.json",
    ];
    for (const path of paths) {
      const res = await findings.get(path, key);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(CANARY);
      // Data responses carry no such field at all (the OpenAPI document names them to say so).
      if (!path.endsWith("openapi.json"))
        expect(res.text).not.toMatch(/email|avatar|budget|hours_?spent|drawings|internal_?notes/i);
    }
  });
});
