import { storageBuckets } from "../../src/config/params";
import { createFindingsApp } from "../../src/findings/app";
import type { ListAttachmentsResponse } from "../../src/findings/listAttachments";
import { logger } from "firebase-functions";
import { signReadUrl, useSigningCredentials } from "../../src/services/signing";
import { seedVessel } from "../../src/testing/builders";
import { at, seedComment, seedFile, seedFinding } from "../../src/testing/findingBuilders";
import { client } from "../../src/testing/http";
import { testServiceAccount, verifyV4Url } from "../../src/testing/v4Signature";

const findings = client(createFindingsApp());
const BUCKET = "demo-safety-apis.firebasestorage.app";
const account = testServiceAccount();
let companyId: string;
let projectId: string;
let key: string;
let findingId: string;

const media = (kind: string, storageRef: string, fileName: string) => ({ kind, storageRef, fileName, blurHash: null, capturedAt: null, uploadedAt: at("2026-01-05T00:00:00Z") });

beforeAll(async () => {
  useSigningCredentials(account.credentials);
  ({ companyId, projectId, key } = await seedVessel());
  findingId = await seedFinding(projectId, companyId, {
    locationDetailsImage: {
      storageRef: `gs://${BUCKET}/loc/image 1.jpg`,
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
    seedFile(projectId, findingId, { customIndex: 2, storageRef: `https://firebasestorage.googleapis.com/v0/b/${BUCKET}/o/${encodeURIComponent("files/b é.jpg")}?alt=media&token=t` }, "file-b"),
    seedFile(projectId, findingId, { customIndex: 1, storageRef: "files/a.jpg", title: "A", excludedFromReports: true }, "file-a"),
    seedFile(projectId, findingId, { customIndex: null, uploadedAt: at("2026-01-02T00:00:00Z"), storageRef: "gs://someone-elses-bucket/x.jpg" }, "file-d"),
    seedFile(projectId, findingId, { customIndex: null, uploadedAt: at("2026-01-01T00:00:00Z"), storageRef: "ftp://example.com/x" }, "file-c"),
    seedFile(projectId, findingId, { customIndex: 0, deleted: true }, "file-deleted"),
    seedComment(projectId, findingId, { createdAt: at("2026-01-04T00:00:00Z"), media: [media("audio", "voice/2.m4a", "2.m4a")] }, "c-later"),
    seedComment(projectId, findingId, { createdAt: at("2026-01-03T00:00:00Z"), media: [media("image", "photos/1.jpg", "1.jpg"), media("file", "", "empty-ref.pdf")] }, "c-earlier"),
    seedComment(projectId, findingId, { createdAt: at("2026-01-03T12:00:00Z"), text: "no media" }, "c-none"),
  ]);
});

afterAll(() => useSigningCredentials(undefined));

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
    expect(body.data[1]).toMatchObject({ title: "A", excluded_from_reports: true, custom_index: 1, content_kind: "image", uploaded_by_name: "Uploader" });
    expect(body.data[7]).toMatchObject({ content_kind: "audio", comment_id: "c-later", id: null });
    expect(JSON.stringify(body)).not.toContain("private-canary");
  });

  it("signs each of the three reference shapes with a 15-minute V4 link the test service account verifies", async () => {
    const before = Date.now();
    const body = await list();
    const signedRows = [body.data[0], body.data[1], body.data[2], body.data[5], body.data[7]];
    const expectedObjects = ["loc/image 1.jpg", "files/a.jpg", "files/b é.jpg", "photos/1.jpg", "voice/2.m4a"];
    signedRows.forEach((row, i) => {
      expect(row.download_error).toBeNull();
      const check = verifyV4Url(row.download_url!, account.publicKey);
      expect(check.valid).toBe(true);
      expect(check.params.get("X-Goog-Expires")).toBe("900");
      expect(check.params.get("X-Goog-Credential")).toContain(account.credentials.client_email);
      // Bare paths live in the deployment's default bucket; the others name theirs.
      const bare = ["files/a.jpg", "photos/1.jpg", "voice/2.m4a"].includes(expectedObjects[i]);
      const bucket = bare ? storageBuckets().defaultBucket : BUCKET;
      expect(decodeURIComponent(check.pathname!)).toBe(`/${bucket}/${expectedObjects[i]}`);
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
    expect(body.data[3]).toMatchObject({ id: "file-c", download_url: null, download_url_expires_at: null, download_error: "unrecognized_storage_reference" });
    expect(body.data[4]).toMatchObject({ id: "file-d", download_url: null, download_error: "foreign_bucket" });
    expect(body.data[6]).toMatchObject({ file_name: "empty-ref.pdf", download_url: null, download_error: "unrecognized_storage_reference" });
  });

  it("reports signing_failed when the signer fails, logged once per bucket and cause, never with the URL", async () => {
    const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
    useSigningCredentials({ client_email: "broken@example.com", private_key: "not a key" });
    try {
      const body = await list("?limit=2");
      expect(body.data.map((r) => r.download_error)).toEqual(["signing_failed", "signing_failed"]);
      expect(body.data[0].download_url).toBeNull();
      await list();
      // Two listings, rows in one or two buckets (the default bucket depends on the environment):
      // each bucket and cause is logged exactly once.
      const logged = error.mock.calls.filter(([event]) => event === "signing.failed").map(([, fields]) => fields);
      expect(logged).toContainEqual({ bucket: BUCKET, error: expect.any(String) });
      const causes = logged.map((f) => `${f.bucket} ${f.error}`);
      expect(new Set(causes).size).toBe(causes.length);
      expect(JSON.stringify(logged)).not.toMatch(/loc\/|files\/|https:/);
    } finally {
      useSigningCredentials(account.credentials);
      error.mockRestore();
    }
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

  it.each(["limit=0", "limit=501", "page_token=abc", "from=2026-01-01"])("%s → 400 (no paging on attachments)", async (q) => {
    const res = await findings.get(`/v1/findings/${findingId}/attachments?${q}`, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
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
      const date = params.get("X-Goog-Date")!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z");
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
