import { Query } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import { seedProject, seedVessel } from "../support/builders";
import { at, seedComment, seedFinding } from "../support/findingBuilders";
import { client } from "../support/http";

const findings = client(createFindingsApp());
let companyId: string;
let projectId: string;
let key: string;
let findingId: string;

beforeAll(async () => {
  ({ companyId, projectId, key } = await seedVessel());
  findingId = await seedFinding(projectId, companyId);
  await Promise.all([
    seedComment(
      projectId,
      findingId,
      {
        createdAt: at("2026-01-03T00:00:00Z"),
        text: "Status changed from Open to Closed",
        systemTriggered: true,
      },
      "c3",
    ),
    seedComment(
      projectId,
      findingId,
      { createdAt: at("2026-01-01T00:00:00Z"), text: "First" },
      "c1",
    ),
    seedComment(
      projectId,
      findingId,
      {
        createdAt: at("2026-01-02T00:00:00Z"),
        media: [
          {
            kind: "image",
            storageRef: "a.jpg",
            fileName: "a.jpg",
            blurHash: null,
            capturedAt: null,
            uploadedAt: null,
          },
          {
            kind: "file",
            storageRef: "report.pdf",
            fileName: "report.pdf",
            blurHash: null,
            capturedAt: null,
            uploadedAt: null,
          },
          {
            kind: "file",
            storageRef: "second.pdf",
            fileName: "second.pdf",
            blurHash: null,
            capturedAt: null,
            uploadedAt: null,
          },
          {
            kind: "audio",
            storageRef: "v.m4a",
            fileName: "v.m4a",
            blurHash: null,
            capturedAt: null,
            uploadedAt: null,
          },
        ],
      },
      "c2",
    ),
    seedComment(projectId, findingId, { createdAt: null, text: "Imported without a date" }, "c0"),
  ]);
});

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((c) => c.id);

describe("GET /v1/findings/{id}/comments", () => {
  it("returns the thread oldest first, system entries included, media flags derived", async () => {
    const res = await findings.get(`/v1/findings/${findingId}/comments`, key);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(["c0", "c1", "c2", "c3"]);
    expect(res.body.next_page_token).toBeNull();
    const [, first, media, system] = res.body.data;
    expect(first).toEqual({
      id: "c1",
      finding_id: findingId,
      text: "First",
      created_at: "2026-01-01T00:00:00.000Z",
      author_id: "u2",
      author_name: "Commenter",
      system_triggered: false,
      has_image: false,
      has_audio: false,
      has_video: false,
      has_file: false,
      file_name: null,
    });
    expect(media).toMatchObject({
      has_image: true,
      has_audio: true,
      has_video: false,
      has_file: true,
      file_name: "report.pdf",
    });
    expect(system).toMatchObject({
      system_triggered: true,
      text: "Status changed from Open to Closed",
    });
    expect(res.text).not.toContain("private-canary");
  });

  it("bounds created_at: from inclusive (dateless excluded), to exclusive (dateless kept)", async () => {
    expect(
      ids((await findings.get(`/v1/findings/${findingId}/comments?from=2026-01-02`, key)).body),
    ).toEqual(["c2", "c3"]);
    expect(
      ids((await findings.get(`/v1/findings/${findingId}/comments?to=2026-01-02`, key)).body),
    ).toEqual(["c0", "c1"]);
  });

  it("pages with a token bound to the finding", async () => {
    const first = await findings.get(`/v1/findings/${findingId}/comments?limit=3`, key);
    expect(ids(first.body)).toEqual(["c0", "c1", "c2"]);
    const token = encodeURIComponent(first.body.next_page_token);
    const second = await findings.get(
      `/v1/findings/${findingId}/comments?limit=3&page_token=${token}`,
      key,
    );
    expect(ids(second.body)).toEqual(["c3"]);
    expect(second.body.next_page_token).toBeNull();
    const other = await seedFinding(projectId, companyId);
    const replay = await findings.get(
      `/v1/findings/${other}/comments?limit=3&page_token=${token}`,
      key,
    );
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toContain('"page_token"');
  });

  it.each([
    ["an unknown finding", async () => "does-not-exist"],
    ["a hidden finding", async () => seedFinding(projectId, companyId, { hidden: true })],
    ["another project's finding", async () => seedFinding(await seedProject(companyId), companyId)],
    ["an id that is not a document id", async () => "__reserved__"],
    ["an id with an encoded slash", async () => `${findingId}%2Fcomments%2Fc1`],
    ["a dot-dot id", async () => ".."],
  ])("%s → 404 not_found", async (_n, make) => {
    const id = await make();
    for (const sub of ["comments", "attachments"]) {
      const res = await findings.get(`/v1/findings/${id}/${sub}`, key);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });

  it.each(["limit=0", "from=2026-13-01", "from=2026-01-02&to=2026-01-01", "status=Open"])(
    "%s → 400",
    async (query) => {
      const res = await findings.get(`/v1/findings/${findingId}/comments?${query}`, key);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    },
  );

  it("a comment without created_at costs a whole-thread read on the first page only; later pages read a page", async () => {
    const thread = await seedFinding(projectId, companyId);
    const comments = `projects/${projectId}/findings/${thread}/comments`;
    await firestore().doc(`${comments}/undated`).set({ text: "No date at all", authorId: "u2" });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        seedComment(
          projectId,
          thread,
          { createdAt: at(`2026-02-01T00:00:${String(i).padStart(2, "0")}Z`) },
          `d${String(i).padStart(2, "0")}`,
        ),
      ),
    );
    const seen: string[] = [];
    let token: string | null = null;
    const readsPerPage: number[] = [];
    do {
      const reads = await documentsReadBy(() =>
        findings.get(
          `/v1/findings/${thread}/comments?limit=5${token ? `&page_token=${encodeURIComponent(token)}` : ""}`,
          key,
        ),
      );
      expect(reads.result.status).toBe(200);
      seen.push(...ids(reads.result.body));
      readsPerPage.push(reads.documents);
      token = reads.result.body.next_page_token;
    } while (token);
    expect(seen).toEqual([
      "undated",
      ...Array.from({ length: 40 }, (_, i) => `d${String(i).padStart(2, "0")}`),
    ]);
    expect(readsPerPage[0]).toBeGreaterThanOrEqual(41);
    // At most a page and its look-ahead.
    for (const reads of readsPerPage.slice(1)) expect(reads).toBeLessThanOrEqual(6);
  });
});

/**
 * Documents returned by every query while `run` runs (the billed reads, besides single-document
 * gets).
 */
async function documentsReadBy<T>(
  run: () => Promise<T>,
): Promise<{ result: T; documents: number }> {
  let documents = 0;
  // restored below, called with its own query
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const originalGet = Query.prototype.get;
  // restored below, called with its own query
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const originalStream = Query.prototype.stream;
  Query.prototype.get = async function (this: Query) {
    const snap = await originalGet.call(this);
    documents += snap.size;
    return snap;
  };
  Query.prototype.stream = function (this: Query) {
    const stream = originalStream.call(this);
    stream.on("data", () => {
      documents += 1;
    });
    return stream;
  };
  try {
    return { result: await run(), documents };
  } finally {
    Query.prototype.get = originalGet;
    Query.prototype.stream = originalStream;
  }
}
