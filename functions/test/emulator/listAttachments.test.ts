import { firestore } from "../../src/config/firebase";
import { storageBuckets } from "../../src/config/params";
import { createFindingsApp } from "../../src/findings/app";
import type { ListAttachmentsResponse } from "../../src/findings/listAttachments";
import { signReadUrl } from "../../src/services/signing";
import { seedVessel } from "../support/builders";
import { at, seedComment, seedFile, seedFinding } from "../support/findingBuilders";
import { client } from "../support/http";
import { logger } from "../support/logger";
import { useTestServiceAccount, verifyV4Url } from "../support/v4Signature";

const findings = client(createFindingsApp());
const BUCKET = "demo-safety-apis.firebasestorage.app";
const account = useTestServiceAccount();
let companyId: string;
let projectId: string;
let key: string;
let findingId: string;
/** The vessel's own folder: the only objects the API signs for its key. */
const own = (path: string) => `projects/${projectId}/${path}`;

const media = (kind: string, storageRef: string, fileName: string) => ({
  kind,
  storageRef,
  fileName,
  blurHash: null,
  capturedAt: null,
  uploadedAt: at("2026-01-05T00:00:00Z"),
});

beforeAll(async () => {
  ({ companyId, projectId, key } = await seedVessel());
  findingId = await seedFinding(projectId, companyId, {
    locationDetailsImage: {
      storageRef: `gs://${BUCKET}/${own("loc/image 1.jpg")}`,
      fileName: "image 1.jpg",
      blurHash: "LKO2",
      capturedAt: at("2026-01-01T00:00:00Z"),
      uploadedAt: at("2026-01-01T01:00:00Z"),
      uploadedBy: "u1",
      uploadedByName: "Creator",
      uploadedByCompanyName: "Co",
    },
  });
  await Promise.all([
    seedFile(
      projectId,
      findingId,
      {
        customIndex: 2,
        storageRef: `https://firebasestorage.googleapis.com/v0/b/${BUCKET}/o/${encodeURIComponent(own("files/b é.jpg"))}?alt=media&token=t`,
      },
      "file-b",
    ),
    seedFile(
      projectId,
      findingId,
      { customIndex: 1, storageRef: own("files/a.jpg"), title: "A", excludedFromReports: true },
      "file-a",
    ),
    seedFile(
      projectId,
      findingId,
      {
        customIndex: null,
        uploadedAt: at("2026-01-02T00:00:00Z"),
        storageRef: "gs://someone-elses-bucket/x.jpg",
      },
      "file-d",
    ),
    seedFile(
      projectId,
      findingId,
      {
        customIndex: null,
        uploadedAt: at("2026-01-01T00:00:00Z"),
        storageRef: "ftp://example.com/x",
      },
      "file-c",
    ),
    seedFile(projectId, findingId, { customIndex: 0, deleted: true }, "file-deleted"),
    seedComment(
      projectId,
      findingId,
      {
        createdAt: at("2026-01-04T00:00:00Z"),
        media: [media("audio", own("voice/2.m4a"), "2.m4a")],
      },
      "c-later",
    ),
    seedComment(
      projectId,
      findingId,
      {
        createdAt: at("2026-01-03T00:00:00Z"),
        media: [media("image", own("photos/1.jpg"), "1.jpg"), media("file", "", "empty-ref.pdf")],
      },
      "c-earlier",
    ),
    seedComment(
      projectId,
      findingId,
      { createdAt: at("2026-01-03T12:00:00Z"), text: "no media" },
      "c-none",
    ),
  ]);
});

async function list(query = ""): Promise<ListAttachmentsResponse> {
  const res = await findings.get(`/v1/findings/${findingId}/attachments${query}`, key);
  expect(res.status).toBe(200);
  return res.body;
}

describe("GET /v1/findings/{id}/attachments", () => {
  it("orders rows: location image, files in the app's order, comment files by comment, oldest first", async () => {
    const body = await list();
    expect(body.finding_id).toBe(findingId);
    expect(body.truncated).toBe(false);
    expect(body.data.map((r) => [r.source, r.id ?? r.comment_id, r.file_name])).toEqual([
      ["location_details_image", null, "image 1.jpg"],
      ["findings_file", "file-a", "photo.jpg"],
      ["findings_file", "file-b", "photo.jpg"],
      ["findings_file", "file-c", "photo.jpg"],
      ["findings_file", "file-d", "photo.jpg"],
      ["comment", "c-earlier", "1.jpg"],
      ["comment", "c-earlier", "empty-ref.pdf"],
      ["comment", "c-later", "2.m4a"],
    ]);
    expect(body.data[1]).toMatchObject({
      title: "A",
      excluded_from_reports: true,
      custom_index: 1,
      content_kind: "image",
      uploaded_by_name: "Uploader",
    });
    expect(body.data[7]).toMatchObject({ content_kind: "audio", comment_id: "c-later", id: null });
    expect(JSON.stringify(body)).not.toContain("private-canary");
  });

  it("signs each of the three reference shapes with a 15-minute V4 link the test service account verifies", async () => {
    const before = Date.now();
    const body = await list();
    const signedRows = [body.data[0], body.data[1], body.data[2], body.data[5], body.data[7]];
    const expectedObjects = [
      "loc/image 1.jpg",
      "files/a.jpg",
      "files/b é.jpg",
      "photos/1.jpg",
      "voice/2.m4a",
    ];
    signedRows.forEach((row, i) => {
      expect(row.download_error).toBeNull();
      const check = verifyV4Url(row.download_url!, account.publicKey);
      expect(check.valid).toBe(true);
      expect(check.params.get("X-Goog-Expires")).toBe("900");
      expect(check.params.get("X-Goog-Credential")).toContain(account.credentials.client_email);
      // Bare paths live in the deployment's default bucket; the others name theirs.
      const bare = ["files/a.jpg", "photos/1.jpg", "voice/2.m4a"].includes(expectedObjects[i]);
      const bucket = bare ? storageBuckets().defaultBucket : BUCKET;
      expect(decodeURIComponent(check.pathname!)).toBe(`/${bucket}/${own(expectedObjects[i])}`);
      const expires = Date.parse(row.download_url_expires_at!);
      expect(expires).toBeGreaterThanOrEqual(before + 900_000 - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 900_000 + 1000);
    });
  });

  it("a tampered link fails verification", async () => {
    const url = (await list()).data[0].download_url!.replace("image%201.jpg", "image%202.jpg");
    expect(verifyV4Url(url, account.publicKey).valid).toBe(false);
  });

  it("reports rows it cannot sign per row, and still succeeds", async () => {
    const body = await list();
    expect(body.data[3]).toMatchObject({
      id: "file-c",
      download_url: null,
      download_url_expires_at: null,
      download_error: "unrecognized_storage_reference",
    });
    expect(body.data[4]).toMatchObject({
      id: "file-d",
      download_url: null,
      download_error: "foreign_bucket",
    });
    expect(body.data[6]).toMatchObject({
      file_name: "empty-ref.pdf",
      download_url: null,
      download_error: "unrecognized_storage_reference",
    });
  });

  it("caps the total with limit and says so", async () => {
    const capped = await list("?limit=3");
    expect(capped.data.map((r) => r.id)).toEqual([null, "file-a", "file-b"]);
    expect(capped.truncated).toBe(true);
    const exact = await list("?limit=8");
    expect(exact.data).toHaveLength(8);
    expect(exact.truncated).toBe(false);
  });

  it("a finding without attachments answers an empty list", async () => {
    const bare = await seedFinding(projectId, companyId);
    const res = await findings.get(`/v1/findings/${bare}/attachments`, key);
    expect(res.body).toEqual({ data: [], finding_id: bare, truncated: false });
  });

  it.each(["limit=0", "limit=501", "page_token=abc", "from=2026-01-01"])(
    "%s → 400 (no paging on attachments)",
    async (q) => {
      const res = await findings.get(`/v1/findings/${findingId}/attachments?${q}`, key);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    },
  );
});

describe("objects outside the vessel's folder (cross-tenant links)", () => {
  it("are never signed: another company's object in the deployment's own bucket is unrecognized_storage_reference, logged once", async () => {
    const warn = jest.spyOn(logger, "warn").mockImplementation(() => undefined);
    try {
      const victim = await seedVessel();
      const stolen = `projects/${victim.projectId}/findings/f1/passport.jpg`;
      const attack = await seedFinding(projectId, companyId);
      await Promise.all([
        seedComment(
          projectId,
          attack,
          {
            createdAt: at("2026-01-03T00:00:00Z"),
            media: [
              media("image", `gs://${BUCKET}/${stolen}`, "a.jpg"),
              media("image", stolen, "b.jpg"),
            ],
          },
          "c-steal",
        ),
        seedFile(
          projectId,
          attack,
          { customIndex: 1, storageRef: `projects/${projectId}x/other.jpg` },
          "f-prefix-twin",
        ),
        seedFile(projectId, attack, { customIndex: 2, storageRef: "shared/logo.png" }, "f-outside"),
      ]);
      for (let i = 0; i < 2; i++) {
        const res = await findings.get(`/v1/findings/${attack}/attachments`, key);
        expect(res.status).toBe(200);
        expect(
          res.body.data.map((r: { download_url: string | null; download_error: string | null }) => [
            r.download_url,
            r.download_error,
          ]),
        ).toEqual(Array.from({ length: 4 }, () => [null, "unrecognized_storage_reference"]));
      }
      const logged = warn.mock.calls.filter(([event]) => event === "signing.outside_project");
      expect(logged).toEqual([
        ["signing.outside_project", { event: "signing.outside_project", projectId }],
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("bounded work per request", () => {
  it("reads at most 1,000 comments of a thread for attachments, and says the list is truncated", async () => {
    const long = await seedFinding(projectId, companyId);
    const batch = firestore().batch();
    for (let i = 0; i < 1001; i++) {
      batch.set(
        firestore().doc(
          `projects/${projectId}/findings/${long}/comments/c${String(i).padStart(4, "0")}`,
        ),
        {
          createdAt: at("2026-01-03T00:00:00Z"),
          media: i % 100 === 0 ? [media("image", own(`t/${i}.jpg`), `${i}.jpg`)] : [],
        },
      );
    }
    await batch.commit();
    const body = (await findings.get(`/v1/findings/${long}/attachments`, key))
      .body as ListAttachmentsResponse;
    expect(body.data.map((r) => r.file_name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${i * 100}.jpg`),
    );
    expect(body.truncated).toBe(true);
  });
});

describe("link lifetime", () => {
  it("every link is valid exactly 900 s from one clock reading, and says so in download_url_expires_at", async () => {
    for (const offset of [0, 1, 499, 998, 999]) {
      // A clock reading just before a second boundary: the old code signed from a second reading.
      const now = Date.now() - offset;
      const { url, expiresAt } = await signReadUrl(BUCKET, "files/a.jpg", now);
      const params = new URL(url).searchParams;
      expect(params.get("X-Goog-Expires")).toBe("900");
      const date = params
        .get("X-Goog-Date")!
        .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z");
      expect(expiresAt.getTime()).toBe(Date.parse(date) + 900_000);
    }
    const rows = (await list()).data.filter((r) => r.download_url);
    for (const row of rows) {
      const params = new URL(row.download_url!).searchParams;
      expect(params.get("X-Goog-Expires")).toBe("900");
      expect(row.download_url_expires_at).toBe(rows[0].download_url_expires_at);
    }
  });
});
