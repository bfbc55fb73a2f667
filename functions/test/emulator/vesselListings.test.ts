import { firestore } from "../../src/config/firebase";
import { createFindingsApp } from "../../src/findings/app";
import type { ListAttachmentsResponse } from "../../src/findings/listAttachments";
import type { ListVesselAttachmentsResponse } from "../../src/findings/listVesselAttachments";
import type { ListVesselCommentsResponse } from "../../src/findings/listVesselComments";
import { seedKey, seedVessel } from "../support/builders";
import { at, seedComment, seedFile, seedFinding } from "../support/findingBuilders";
import { allPages, auditEntriesFor, client } from "../support/http";
import { useTestServiceAccount, verifyV4Url } from "../support/v4Signature";

/** GET /v1/comments, GET /v1/attachments and each row's content_url, against the emulator. */
const findings = client(createFindingsApp());
const account = useTestServiceAccount();
type Vessel = Awaited<ReturnType<typeof seedVessel>>;
let vessel: Vessel;
let other: Vessel;
let visible: string[];
let hidden: string;
let foreignFinding: string;

const media = (projectId: string, name: string) => ({
  kind: "image",
  storageRef: `projects/${projectId}/photos/${name}`,
  fileName: name,
  blurHash: null,
  capturedAt: null,
  uploadedAt: at("2026-01-05T00:00:00Z"),
});

/**
 * A finding with a location image, two live files, a deleted one and three comments (two with
 * files).
 */
async function seedRich(v: Vessel, id: string, overrides = {}): Promise<string> {
  const { projectId, companyId } = v;
  await seedFinding(
    projectId,
    companyId,
    {
      locationDetailsImage: {
        storageRef: `projects/${projectId}/loc/${id}.jpg`,
        fileName: `${id}.jpg`,
        uploadedAt: at("2026-01-01T00:00:00Z"),
      },
      ...overrides,
    },
    id,
  );
  await Promise.all([
    seedFile(projectId, id, { customIndex: 2, storageRef: `projects/${projectId}/f/${id}-a` }, "a"),
    seedFile(projectId, id, { customIndex: 1, storageRef: `projects/${projectId}/f/${id}-b` }, "b"),
    seedFile(projectId, id, { deleted: true, storageRef: `projects/${projectId}/f/gone` }, "c"),
    seedComment(projectId, id, { createdAt: at("2026-01-03T00:00:00Z") }, "c1"),
    seedComment(
      projectId,
      id,
      {
        createdAt: at("2026-01-02T00:00:00Z"),
        media: [media(projectId, `${id}-1.jpg`), media(projectId, `${id}-2.jpg`)],
      },
      "c2",
    ),
    seedComment(projectId, id, { media: [media(projectId, `${id}-3.jpg`)] }, "c3"),
  ]);
  return id;
}

beforeAll(async () => {
  [vessel, other] = await Promise.all([seedVessel(), seedVessel()]);
  visible = [await seedRich(vessel, "f-1"), await seedRich(vessel, "f-3")];
  hidden = await seedRich(vessel, "f-2", { hidden: true });
  foreignFinding = await seedRich(other, "g-9");
});

const get = (path: string, key = vessel.key) => findings.get(path, key);
const rowsOf = <R>(pages: Array<{ data: R[] }>) => pages.flatMap((p) => p.data);
/** supertest listens on a new port per request: content_url's path is what must agree. */
const pathOf = (url: string) => new URL(url).pathname;
/** A row without what differs between two signings of the same object. */
const unsigned = <
  R extends { download_url: string | null; download_url_expires_at: unknown; content_url: string },
>(
  row: R,
) => ({
  ...row,
  download_url: row.download_url?.split("?")[0],
  download_url_expires_at: null,
  content_url: pathOf(row.content_url),
});

describe("GET /v1/comments", () => {
  it("lists every visible finding's comments as the per-finding listing does, by finding then comment id", async () => {
    const pages = await allPages<ListVesselCommentsResponse>(get, "/v1/comments?limit=2");
    const rows = rowsOf(pages);
    expect(rows.map((r) => `${r.finding_id}/${r.id}`)).toEqual([
      "f-1/c1",
      "f-1/c2",
      "f-1/c3",
      "f-3/c1",
      "f-3/c2",
      "f-3/c3",
    ]);
    for (const id of visible) {
      const own = (await get(`/v1/findings/${id}/comments?limit=500`)).body.data;
      expect(rows.filter((r) => r.finding_id === id)).toEqual(
        expect.arrayContaining(own as unknown[]),
      );
      expect(own).toHaveLength(3);
    }
    expect(JSON.stringify(pages)).not.toContain("private-canary");
  });

  it("steps over a hidden finding's long thread instead of paging through it", async () => {
    const v = await seedVessel();
    await seedFinding(v.projectId, v.companyId, { hidden: true }, "a-hidden");
    await seedFinding(v.projectId, v.companyId, {}, "b-visible");
    const batch = firestore().batch();
    for (let i = 0; i < 60; i++)
      batch.set(firestore().doc(`projects/${v.projectId}/findings/a-hidden/comments/h${i}`), {
        text: "secret",
      });
    await batch.commit();
    await seedComment(v.projectId, "b-visible", {}, "v1");
    const pages = await allPages<ListVesselCommentsResponse>(
      (path) => get(path, v.key),
      "/v1/comments?limit=5",
    );
    // One page reads 6 of the hidden thread and skips the rest; the next holds the visible comment.
    expect(pages.length).toBe(2);
    expect(rowsOf(pages).map((r) => r.id)).toEqual(["v1"]);
  });

  it("refuses a limit above 500 and another listing's page token", async () => {
    expect((await get("/v1/comments?limit=501")).status).toBe(400);
    const token = (await get("/v1/comments?limit=1")).body.next_page_token as string;
    const res = await get(`/v1/attachments?page_token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });
});

describe("GET /v1/attachments", () => {
  it("lists every visible finding's attachment rows as the per-finding listing does, in path order", async () => {
    const all = rowsOf(
      await allPages<ListVesselAttachmentsResponse>(get, "/v1/attachments?limit=500"),
    );
    expect(
      all.map((r) => `${r.finding_id}:${r.source}:${r.id ?? r.comment_id}:${r.file_name}`),
    ).toEqual(
      visible.flatMap((f) => [
        `${f}:location_details_image:null:${f}.jpg`,
        `${f}:comment:c2:${f}-1.jpg`,
        `${f}:comment:c2:${f}-2.jpg`,
        `${f}:comment:c3:${f}-3.jpg`,
        `${f}:findings_file:a:photo.jpg`,
        `${f}:findings_file:b:photo.jpg`,
      ]),
    );
    for (const id of visible) {
      const own: ListAttachmentsResponse = (await get(`/v1/findings/${id}/attachments`)).body;
      const mine = all
        .filter((r) => r.finding_id === id)
        .map(({ finding_id: _finding, ...row }) => row);
      expect(mine.map(unsigned)).toEqual(expect.arrayContaining(own.data.map(unsigned)));
      expect(mine).toHaveLength(own.data.length);
    }
    expect(all.every((r) => verifyV4Url(r.download_url!, account.publicKey).valid)).toBe(true);
  });

  it("pages of any size give the same rows, each once", async () => {
    const whole = rowsOf(
      await allPages<ListVesselAttachmentsResponse>(get, "/v1/attachments?limit=500"),
    );
    for (const limit of [1, 2, 5]) {
      const paged = rowsOf(
        await allPages<ListVesselAttachmentsResponse>(get, `/v1/attachments?limit=${limit}`, 40),
      );
      expect(paged.map((r) => pathOf(r.content_url))).toEqual(
        whole.map((r) => pathOf(r.content_url)),
      );
    }
  });
});

describe("GET /v1/attachments over a hidden finding", () => {
  it("steps over a hidden finding's many comment files instead of paging through them", async () => {
    const v = await seedVessel();
    await seedFinding(v.projectId, v.companyId, { hidden: true }, "a-hidden");
    await seedFinding(v.projectId, v.companyId, {}, "b-visible");
    const batch = firestore().batch();
    for (let i = 0; i < 60; i++)
      batch.set(firestore().doc(`projects/${v.projectId}/findings/a-hidden/comments/h${i}`), {
        media: [media(v.projectId, `secret-${i}.jpg`)],
      });
    await batch.commit();
    await seedFile(v.projectId, "b-visible", { storageRef: `projects/${v.projectId}/f/ok` }, "ok");
    const pages = await allPages<ListVesselAttachmentsResponse>(
      (path) => get(path, v.key),
      "/v1/attachments?limit=5",
    );
    // Page 1 scans 24 of the hidden comments, then resumes after the finding; page 2 the file.
    expect(pages.length).toBe(2);
    expect(rowsOf(pages).map((r) => `${r.finding_id}/${r.id}`)).toEqual(["b-visible/ok"]);
    expect(JSON.stringify(pages)).not.toContain("secret");
  });
});

describe("content_url", () => {
  it("answers 302 to a fresh link that verifies, counted and audited like any request", async () => {
    const rows = rowsOf(
      await allPages<ListVesselAttachmentsResponse>(get, "/v1/attachments?limit=500"),
    );
    for (const row of rows.filter((r) => r.finding_id === "f-1")) {
      const url = new URL(row.content_url);
      const rid = `rq-content-${Math.random().toString(36).slice(2)}`;
      const res = await findings.get(url.pathname, vessel.key, { "X-Request-Id": rid });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(res.body.download_url);
      const check = verifyV4Url(res.headers.location, account.publicKey);
      expect(check.valid).toBe(true);
      expect(check.pathname).toBe(new URL(row.download_url!).pathname);
      // The closer window: the day once a minute boundary passed during the file (the key allows
      // 10,000 a minute).
      expect(res.headers.ratelimit).toMatch(/^"(minute|day)";r=\d+;t=\d+$/);
      expect(await auditEntriesFor(vessel.companyId, rid)).toEqual([
        expect.objectContaining({ action: "api.request", status: 302 }),
      ]);
    }
  });

  it("each request counts in the key's window", async () => {
    // A key of the default size keeps one counter document, so its header is exact (a larger
    // key's is estimated from one shard: docs/development.md, "The rate-limit counter").
    const { key } = await seedKey({
      api: "findings",
      companyId: vessel.companyId,
      projectId: vessel.projectId,
      rateLimits: { perMinute: 60 },
    });
    const path = `/v1/findings/f-1/attachments/file.a/content`;
    const remaining = async () =>
      Number(/r=(\d+)/.exec((await get(path, key)).headers.ratelimit)![1]);
    const first = await remaining();
    expect(await remaining()).toBe(first - 1);
  });

  it("404: another vessel's attachment, a hidden finding, a deleted file, an unknown id", async () => {
    const cases = [
      `/v1/findings/${foreignFinding}/attachments/file.a/content`,
      `/v1/findings/${hidden}/attachments/file.a/content`,
      `/v1/findings/${hidden}/attachments/location_details_image/content`,
      `/v1/findings/f-1/attachments/file.c/content`,
      `/v1/findings/f-1/attachments/comment.c2.2/content`,
      `/v1/findings/f-1/attachments/comment.c1.0/content`,
      `/v1/findings/f-1/attachments/nonsense/content`,
    ];
    // Nor does the other vessel's key reach vessel A's attachments.
    const foreign = await findings.get(`/v1/findings/f-3/attachments/file.a/content`, other.key);
    expect(foreign.status).toBe(404);
    for (const path of cases) {
      const res = await get(path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 404,
        code: "not_found",
      });
    }
  });
});
