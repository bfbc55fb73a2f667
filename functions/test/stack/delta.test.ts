import { Timestamp, type DocumentReference, type WriteResult } from "firebase-admin/firestore";
import { firestore } from "../../src/config/firebase";
import { pageTokenSecrets } from "../../src/config/params";
import { encodeToken, scopeDigest } from "../../src/lib/pageToken";
import { seedCompany, seedKey, seedVessel } from "../support/builders";
import { findingRef, incidentData, incidentRef, summary, sync } from "../support/delta";
import { at, findingData, seedComment, seedFile } from "../support/findingBuilders";

/*
 * The delta endpoints through the real Functions runtime: every write below reaches the change
 * triggers only through the Firestore emulator's trigger delivery (nothing here calls them).
 */
const FINDINGS = process.env.FINDINGS_API_URL!;
const COMPANY = process.env.COMPANY_API_URL!;

const getter = (base: string, key: string) => async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
};

/** The change record of `source` once the trigger has recorded a write committed at `after`. */
async function recorded(source: DocumentReference, after: Timestamp) {
  const kind = source.parent.id === "findings" ? "findingChanges" : "incidentChanges";
  const record = source.parent.parent!.collection(kind).doc(source.id);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const snap = await record.get();
    const changedAt = snap.get("changedAt") as Timestamp | undefined;
    if (changedAt && changedAt.valueOf() > after.valueOf()) return snap.data()!;
    if (Date.now() > deadline) throw new Error(`no change record for ${source.path}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** Runs the writes, then waits until the triggers recorded each one. */
async function settled(writes: Array<[DocumentReference, Promise<WriteResult>]>) {
  const results = await Promise.all(writes.map(([, w]) => w));
  await Promise.all(writes.map(([source], i) => recorded(source, results[i].writeTime)));
}

describe("delta sync through the Functions runtime, triggers firing", () => {
  let v: Awaited<ReturnType<typeof seedVessel>>;
  let other: Awaited<ReturnType<typeof seedVessel>>;
  const finding = (id: string, vessel = v) => findingRef(vessel.projectId, id);
  const put = (id: string, fields: Record<string, unknown> = {}, vessel = v) =>
    [
      finding(id, vessel),
      finding(id, vessel).set(findingData(vessel.projectId, vessel.companyId, fields)),
    ] as [DocumentReference, Promise<WriteResult>];
  const patch = (id: string, fields: Record<string, unknown>) =>
    [finding(id), finding(id).set(fields, { merge: true })] as [
      DocumentReference,
      Promise<WriteResult>,
    ];

  beforeAll(async () => {
    [v, other] = await Promise.all([seedVessel(), seedVessel()]);
    await settled([
      ...["f1", "f2", "f3", "f4", "f5"].map((id) => put(id)),
      put("f-hidden", { hidden: true }),
      put("f-other", {}, other),
    ]);
  });

  it("hide, unhide, delete, an offline edit, comments and files: rows and removals, never another vessel's", async () => {
    const get = getter(FINDINGS, v.key);
    const copy = await sync(get, "/v1/findings/delta", { limit: 2 });
    expect(summary(copy.rows)).toEqual({ rows: ["f1", "f2", "f3", "f4", "f5"], removed: [] });

    await settled([
      patch("f1", { hidden: true }),
      [finding("f2"), finding("f2").delete()],
      patch("f3", { title: "Edited offline", lastEditedDate: at("2020-01-01T00:00:00Z") }),
      put("f-born-hidden", { hidden: true }),
      put("f-other", { title: "changed" }, other),
    ]);
    // A new comment and a new file: changes of their findings.
    const comment = finding("f4")
      .collection("comments")
      .doc(await seedComment(v.projectId, "f4"));
    const file = finding("f5")
      .collection("files")
      .doc(await seedFile(v.projectId, "f5"));
    await recorded(finding("f4"), (await comment.get()).updateTime!);
    await recorded(finding("f5"), (await file.get()).updateTime!);

    const delta = await sync(get, "/v1/findings/delta", { deltaToken: copy.deltaToken });
    expect(summary(delta.rows)).toEqual({
      rows: ["f3", "f4", "f5"],
      removed: ["f1:hidden", "f2:deleted"],
    });
    expect(delta.rows.find((r) => r.id === "f3")).toMatchObject({ title: "Edited offline" });

    await settled([patch("f1", { hidden: false })]);
    const next = await sync(get, "/v1/findings/delta", { deltaToken: delta.deltaToken });
    expect(summary(next.rows)).toEqual({ rows: ["f1"], removed: [] });
  });

  it("pages a 500-row delta across pages, each row once", async () => {
    const w = await seedVessel();
    const get = getter(FINDINGS, w.key);
    const copy = await sync(get, "/v1/findings/delta");
    const ids = Array.from({ length: 500 }, (_, i) => `g${String(i).padStart(3, "0")}`);
    const batch = firestore().batch();
    for (const id of ids)
      batch.set(findingRef(w.projectId, id), findingData(w.projectId, w.companyId, { title: id }));
    const [{ writeTime }] = await batch.commit();
    await Promise.all(ids.map((id) => recorded(findingRef(w.projectId, id), writeTime)));
    const delta = await sync(get, "/v1/findings/delta", {
      deltaToken: copy.deltaToken,
      limit: 200,
    });
    expect(delta.pages).toBe(3);
    expect(summary(delta.rows).rows).toEqual(ids);
    expect(delta.rows).toHaveLength(500);
  });

  it("a change committed while a delta is paged comes in the next delta", async () => {
    const get = getter(FINDINGS, v.key);
    const start = await sync(get, "/v1/findings/delta");
    await settled(["f3", "f4", "f5"].map((id) => patch(id, { title: `before ${id}` })));
    const raced: string[] = [];
    const delta = await sync(get, "/v1/findings/delta", {
      deltaToken: start.deltaToken,
      limit: 1,
      between: async (page) => {
        const id = ["f3", "f5"][page - 1]; // one already paged, one ahead
        if (!id) return;
        raced.push(id);
        await settled([patch(id, { title: `raced ${id}` })]);
      },
    });
    expect(summary(delta.rows).rows).toEqual(expect.arrayContaining(["f3", "f4", "f5"]));
    const next = await sync(get, "/v1/findings/delta", { deltaToken: delta.deltaToken });
    expect(raced).toEqual(["f3", "f5"]);
    expect(summary(next.rows).rows).toEqual(expect.arrayContaining(raced));
    expect(next.rows.find((r) => r.id === "f5")).toMatchObject({ title: "raced f5" });
  });

  it("answers 410 resync_required to a token older than the retention", async () => {
    const old = Timestamp.fromMillis(Date.now() - 31 * 86_400_000);
    const scope = scopeDigest({ operation: "findingsDelta", tenant: v.projectId, delta: true });
    const token = encodeToken(pageTokenSecrets(), scope, [old.seconds, old.nanoseconds]);
    const res = await getter(FINDINGS, v.key)(`/v1/findings/delta?delta_token=${token}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ error: { code: "resync_required" } });
  });

  it("incidents: a status change of an old incident, hidden and deleted ones, never another company's", async () => {
    const [companyId, otherId] = await Promise.all([seedCompany(), seedCompany()]);
    const { key } = await seedKey({ api: "company", companyId, rateLimits: { perMinute: 10_000 } });
    const get = getter(COMPANY, key);
    const set = (co: string, id: string, fields: Record<string, unknown>) =>
      [incidentRef(co, id), incidentRef(co, id).set(fields, { merge: true })] as [
        DocumentReference,
        Promise<WriteResult>,
      ];
    await settled([
      ...["i1", "i2", "i3"].map((id) => set(companyId, id, incidentData())),
      set(otherId, "i-other", incidentData()),
    ]);
    const copy = await sync(get, "/v1/incidents/delta");
    expect(summary(copy.rows)).toEqual({ rows: ["i1", "i2", "i3"], removed: [] });
    await settled([
      set(companyId, "i1", { status: "closed", eventDate: at("2019-05-01T00:00:00Z") }),
      set(companyId, "i2", { hidden: true }),
      [incidentRef(companyId, "i3"), incidentRef(companyId, "i3").delete()],
      set(otherId, "i-other", { status: "closed" }),
    ]);
    const delta = await sync(get, "/v1/incidents/delta", { deltaToken: copy.deltaToken });
    expect(summary(delta.rows)).toEqual({ rows: ["i1"], removed: ["i2:hidden", "i3:deleted"] });
  });
});
