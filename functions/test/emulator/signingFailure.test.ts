import { createFindingsApp } from "../../src/findings/app";
import type { ListAttachmentsResponse } from "../../src/findings/listAttachments";
import { seedVessel } from "../support/builders";
import { at, seedFile, seedFinding } from "../support/findingBuilders";
import { client } from "../support/http";
import { logger } from "../support/logger";
import { useKeyFile } from "../support/v4Signature";

/**
 * A signer that cannot sign (a key file whose key is not a key): in a file of its own, since the
 * signing client is made once per test file's modules, from the key file named then.
 */
useKeyFile({ client_email: "broken@example.com", private_key: "not a key" });
const findings = client(createFindingsApp());
const BUCKET = "demo-safety-apis.firebasestorage.app";
let projectId: string;
let key: string;
let findingId: string;
const own = (path: string) => `projects/${projectId}/${path}`;

beforeAll(async () => {
  let companyId: string;
  ({ companyId, projectId, key } = await seedVessel());
  findingId = await seedFinding(projectId, companyId, {
    locationDetailsImage: {
      storageRef: `gs://${BUCKET}/${own("loc/image 1.jpg")}`,
      fileName: "image 1.jpg",
      blurHash: null,
      capturedAt: null,
      uploadedAt: at("2026-01-01T01:00:00Z"),
      uploadedBy: "u1",
      uploadedByName: "Creator",
      uploadedByCompanyName: "Co",
    },
  });
  await Promise.all([
    seedFile(projectId, findingId, { customIndex: 1, storageRef: own("files/a.jpg") }, "file-a"),
    seedFile(
      projectId,
      findingId,
      {
        customIndex: 2,
        storageRef: `https://firebasestorage.googleapis.com/v0/b/${BUCKET}/o/${encodeURIComponent(own("files/b.jpg"))}?alt=media&token=t`,
      },
      "file-b",
    ),
  ]);
});

async function list(query = ""): Promise<ListAttachmentsResponse> {
  const res = await findings.get(`/v1/findings/${findingId}/attachments${query}`, key);
  expect(res.status).toBe(200);
  return res.body;
}

it("reports signing_failed when the signer fails, logged once per bucket and cause, never with the URL", async () => {
  const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
  try {
    const body = await list("?limit=2");
    expect(body.data.map((r) => r.download_error)).toEqual(["signing_failed", "signing_failed"]);
    expect(body.data[0].download_url).toBeNull();
    await list();
    // Two listings, rows in one or two buckets (the default bucket depends on the environment):
    // each bucket and cause is logged exactly once.
    const logged = error.mock.calls
      .filter(([event]) => event === "signing.failed")
      .map(([, fields]) => fields);
    expect(logged).toContainEqual({
      event: "signing.failed",
      bucket: BUCKET,
      error: expect.any(String),
    });
    const causes = logged.map((f) => `${f.bucket} ${f.error}`);
    expect(new Set(causes).size).toBe(causes.length);
    expect(JSON.stringify(logged)).not.toMatch(/loc\/|files\/|https:/);
  } finally {
    error.mockRestore();
  }
});
