import { FieldValue } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { seedCompany, seedKey, seedProject, seedVessel } from "../support/builders";
import { at, seedComment, seedFile, seedFinding } from "../support/findingBuilders";
import { allPages, client } from "../support/http";
import { logger } from "../support/logger";
import { useTestServiceAccount } from "../support/v4Signature";

/**
 * The app's documents come from several app generations. A field of the wrong type is read as
 * absent (or its safe fallback), logged once, and the row is still exported; paging goes on.
 */
const findings = client(createFindingsApp());
const company = client(createCompanyApp());
useTestServiceAccount();
let vessel: { companyId: string; projectId: string; key: string };
let warn: jest.SpyInstance;

beforeAll(async () => {
  warn = jest.spyOn(logger, "warn").mockImplementation(() => undefined);
  vessel = await seedVessel();
});
afterAll(() => warn.mockRestore());

async function exportAll(
  path: string,
  limit: number,
): Promise<{ ids: string[]; requests: number }> {
  const pages = await allPages(
    (page) => findings.get(page, vessel.key),
    `${path}${path.includes("?") ? "&" : "?"}limit=${limit}`,
    200,
  );
  return {
    ids: pages.flatMap((p) => p.data.map((row: { id: string }) => row.id)),
    requests: pages.length,
  };
}

const seed = (id: string, fields: Record<string, unknown>) =>
  seedFinding(vessel.projectId, vessel.companyId, fields, id);

describe("findings of every bad shape", () => {
  beforeAll(async () => {
    await Promise.all([
      seed("a-good", { dateCreated: at("2026-01-01T00:00:00Z") }),
      seed("b-markers-map", { markers: {} }),
      seed("c-latlng-map", { locationLatLng: { latitude: 59.9, longitude: 10.7 } }),
      seed("d-latlng-text", { locationLatLng: "59.9,10.7" }),
      seed("e-float-number", { findingNumber: 4.5 }),
      seed("f-hidden-text", { hidden: "true" }),
      seed("g-hidden-false-text", { hidden: "false" }),
      seed("h-null-checklist-item", {
        checklist: [
          {
            title: "First",
            done: true,
            dateCreated: null,
            dateClosed: null,
            createdBy: null,
            createdByName: null,
          },
          null,
          {
            title: "Third",
            done: "no",
            dateCreated: "yesterday",
            dateClosed: null,
            createdBy: 7,
            createdByName: null,
          },
        ],
      }),
      seed("i-checklist-text", { checklist: "none" }),
      seed("j-created-text", { dateCreated: "2026-01-05" }),
      seed("k-created-map", { dateCreated: { _seconds: 1767571200, _nanoseconds: 0 } }),
      seed("l-created-number", { dateCreated: 1767571200000 }),
      seed("m-mixed-fields", {
        title: 123,
        status: 5,
        assigneeIds: ["u1", 5, null],
        lastComment: "hello",
        locationDetailsImage: "x.jpg",
        numericValue: "3",
      }),
      seed("n-edited-text", { lastEditedDate: "2026-02-01T00:00:00Z" }),
      // Too long to carry in a page token: the token resumes from the document itself.
      seed("o-created-huge-text", { dateCreated: "x".repeat(20_000) }),
    ]);
  });

  it("GET /v1/findings exports every visible one, pages past odd order values and never repeats", async () => {
    for (const limit of [1, 3, 100]) {
      const { ids } = await exportAll("/v1/findings", limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([
        "a-good",
        "b-markers-map",
        "c-latlng-map",
        "d-latlng-text",
        "e-float-number",
        "h-null-checklist-item",
        "i-checklist-text",
        "j-created-text",
        "k-created-map",
        "l-created-number",
        "m-mixed-fields",
        "n-edited-text",
        "o-created-huge-text",
      ]);
    }
  });

  it("orders values of other types where Firestore does: numbers before timestamps, text and maps after", async () => {
    const { ids } = await exportAll("/v1/findings", 100);
    expect(ids.indexOf("l-created-number")).toBeLessThan(ids.indexOf("a-good"));
    expect(ids.indexOf("j-created-text")).toBeGreaterThan(ids.indexOf("a-good"));
    expect(ids.indexOf("k-created-map")).toBeGreaterThan(ids.indexOf("j-created-text"));
  });

  it("incremental sync treats an unreadable last_edited_date like null: never 'at or after' an instant", async () => {
    const { ids } = await exportAll("/v1/findings?updated_since=2026-01-01", 1);
    expect(ids).not.toContain("n-edited-text");
    expect(ids).toContain("a-good");
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("reads each bad field as absent, the safe value, or the same location", async () => {
    const res = await findings.get("/v1/findings?limit=100", vessel.key);
    const byId = Object.fromEntries(res.body.data.map((f: { id: string }) => [f.id, f]));
    expect(byId["b-markers-map"].marker_count).toBe(0);
    expect(byId["c-latlng-map"].location_lat_lng).toEqual({ latitude: 59.9, longitude: 10.7 });
    expect(byId["d-latlng-text"].location_lat_lng).toBeNull();
    expect(byId["e-float-number"].finding_number).toBeNull();
    expect(byId["h-null-checklist-item"].checklist).toEqual([
      expect.objectContaining({ index: 0, title: "First", done: true }),
      expect.objectContaining({
        index: 2,
        title: "Third",
        done: false,
        date_created: null,
        created_by: null,
      }),
    ]);
    expect(byId["h-null-checklist-item"]).toMatchObject({ checklist_total: 2, checklist_open: 1 });
    expect(byId["i-checklist-text"].checklist).toEqual([]);
    expect(byId["j-created-text"].date_created).toBeNull();
    expect(byId["k-created-map"].date_created).toBeNull();
    expect(byId["m-mixed-fields"]).toMatchObject({
      title: "",
      status: null,
      assignee_ids: ["u1"],
      last_comment: null,
      has_location_details_image: false,
      numeric_value: null,
    });
  });

  it("a hidden flag that is not false hides the finding from every endpoint", async () => {
    for (const id of ["f-hidden-text", "g-hidden-false-text"]) {
      expect((await findings.get(`/v1/findings/${id}/comments`, vessel.key)).status).toBe(404);
      expect((await findings.get(`/v1/findings/${id}/attachments`, vessel.key)).status).toBe(404);
    }
  });

  it("logs the document path and field once, never the value", async () => {
    await findings.get("/v1/findings?limit=100", vessel.key);
    const calls = warn.mock.calls.filter(
      ([event, fields]) =>
        event === "stored.invalid_field" &&
        fields.document === `projects/${vessel.projectId}/findings/b-markers-map`,
    );
    expect(calls).toEqual([
      [
        "stored.invalid_field",
        {
          event: "stored.invalid_field",
          document: `projects/${vessel.projectId}/findings/b-markers-map`,
          field: "markers",
        },
      ],
    ]);
    const fields = warn.mock.calls
      .filter(([event]) => event === "stored.invalid_field")
      .map(([, f]) => f.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "checklist.1",
        "checklist.2.done",
        "checklist.2.dateCreated",
        "hidden",
        "assigneeIds.1",
      ]),
    );
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/59\.9,10\.7|hello|x\.jpg/);
  });
});

describe("comments and attachments of bad shape", () => {
  let findingId: string;
  beforeAll(async () => {
    findingId = await seed("z-with-thread", {
      locationDetailsImage: { storageRef: 42, fileName: "loc.jpg" },
    });
    const base = `projects/${vessel.projectId}/findings/${findingId}`;
    await Promise.all([
      seedComment(
        vessel.projectId,
        findingId,
        {
          createdAt: at("2026-01-02T00:00:00Z"),
          media: [
            { kind: "image", fileName: "no-ref.jpg" },
            null,
            {
              kind: "pdf",
              storageRef: `projects/${vessel.projectId}/doc.pdf`,
              fileName: "doc.pdf",
            },
          ],
        },
        "c-dated",
      ),
      seedComment(
        vessel.projectId,
        findingId,
        { createdAt: "2026-01-01", media: "photo.jpg" },
        "c-text-date",
      ),
      seedComment(vessel.projectId, findingId, { createdAt: null }, "c-null-date"),
      seedComment(
        vessel.projectId,
        findingId,
        { createdAt: at("2026-01-01T00:00:00Z") },
        "c-earlier",
      ),
      seedFile(vessel.projectId, findingId, { contentKind: "pdf", customIndex: 1.5 }, "file-pdf"),
      seedFile(vessel.projectId, findingId, { customIndex: 2 }, "file-no-ref"),
      seedFile(vessel.projectId, findingId, { deleted: "yes" }, "file-deleted-text"),
      seedFile(
        vessel.projectId,
        findingId,
        { customIndex: 1, uploadedAt: "today", storageRef: null },
        "file-text-upload",
      ),
    ]);
    await firestore().doc(`${base}/files/file-no-ref`).update({ storageRef: FieldValue.delete() });
    await firestore()
      .doc(`${base}/comments/c-no-date`)
      .set({ text: "Written before createdAt existed", authorId: "u1", authorName: "Old app" });
  });

  it("comments without a readable created_at are exported first, by id, and paging visits each once", async () => {
    for (const limit of [1, 2, 100]) {
      const { ids } = await exportAll(`/v1/findings/${findingId}/comments`, limit);
      expect(ids).toEqual(["c-no-date", "c-null-date", "c-text-date", "c-earlier", "c-dated"]);
    }
  });

  it("`from` leaves comments without created_at out; `to` keeps them", async () => {
    expect(
      (await exportAll(`/v1/findings/${findingId}/comments?from=2026-01-01`, 100)).ids,
    ).toEqual(["c-earlier", "c-dated"]);
    expect((await exportAll(`/v1/findings/${findingId}/comments?to=2026-01-02`, 100)).ids).toEqual([
      "c-no-date",
      "c-null-date",
      "c-text-date",
      "c-earlier",
    ]);
  });

  it("comment flags come from the readable media items only", async () => {
    const res = await findings.get(`/v1/findings/${findingId}/comments`, vessel.key);
    const dated = res.body.data.find((c: { id: string }) => c.id === "c-dated");
    expect(dated).toMatchObject({ has_image: true, has_file: true, file_name: "doc.pdf" });
    expect(res.body.data.find((c: { id: string }) => c.id === "c-text-date")).toMatchObject({
      created_at: null,
      has_image: false,
      has_file: false,
    });
  });

  it("attachments: a row per readable item; unusable references are rows with download_error, not errors", async () => {
    const res = await findings.get(`/v1/findings/${findingId}/attachments`, vessel.key);
    expect(res.status).toBe(200);
    const rows = res.body.data.map(
      (r: {
        source: string;
        id: string | null;
        comment_id: string | null;
        file_name: string;
        content_kind: string;
        custom_index: number | null;
        download_error: string | null;
        uploaded_at: string | null;
      }) => [r.source, r.id ?? r.comment_id, r.content_kind, r.custom_index, r.download_error],
    );
    expect(rows).toEqual([
      ["location_details_image", null, "image", null, "unrecognized_storage_reference"],
      ["findings_file", "file-text-upload", "image", 1, "unrecognized_storage_reference"],
      ["findings_file", "file-no-ref", "image", 2, "unrecognized_storage_reference"],
      ["findings_file", "file-pdf", "file", null, null],
      ["comment", "c-dated", "image", null, "unrecognized_storage_reference"],
      ["comment", "c-dated", "file", null, null],
    ]);
  });
});

describe("companies, projects and keys of bad shape", () => {
  it("a company with seatCapacity stored as text still serves both APIs", async () => {
    const companyId = await seedCompany({
      seatCapacity: "25",
      seatsUsed: "3",
      apiAccess: { findingsExport: true, companyApi: "yes" },
    });
    const projectId = await seedProject(companyId, {
      isClosed: "no",
      vessel: "MV Text",
      dateCreated: "2025",
    });
    const vfe = await seedKey({ api: "findings", companyId, projectId });
    const res = await findings.get("/v1/project", vfe.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ is_closed: false, vessel: {}, date_created: null });
    // `companyApi: "yes"` is not `true`: access stays off, with the usual 403 rather than a 500.
    const csa = await seedKey({ api: "company", companyId });
    expect((await company.get("/v1/nothing-here", csa.key)).status).toBe(403);
  });

  it("a key document missing its company is an unknown key (401), not a 500", async () => {
    const companyId = await seedCompany();
    const csa = await seedKey({ api: "company", companyId });
    await firestore()
      .doc(`apiKeys/${csa.hash}`)
      .update({ companyId: FieldValue.delete(), rateLimits: "lots" });
    const res = await company.get("/v1/nothing-here", csa.key);
    expect(res.status).toBe(401);
  });

  it("an operator rate-limit override of the wrong shape is ignored, the defaults apply", async () => {
    const companyId = await seedCompany({ rateLimits: { perMinute: "many" } });
    const csa = await seedKey({ api: "company", companyId });
    const res = await company.get("/v1/nothing-here", csa.key);
    expect(res.status).toBe(404);
    expect(res.headers["ratelimit-policy"]).toContain('"minute";q=60');
  });
});
