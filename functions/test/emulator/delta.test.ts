import { Timestamp } from "firebase-admin/firestore";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { pageTokenSecrets } from "../../src/config/params";
import { createFindingsApp } from "../../src/findings/app";
import { encodeToken, scopeDigest } from "../../src/lib/pageToken";
import { recordFindingChange, recordIncidentChange } from "../../src/services/changes";
import { seedCompany, seedKey, seedVessel } from "../support/builders";
import {
  findingRef,
  incidentData,
  incidentRef,
  summary,
  sync,
  type DeltaRow,
} from "../support/delta";
import { at, findingData, seedComment, seedFile, seedFinding } from "../support/findingBuilders";
import { client } from "../support/http";

/*
 * The delta endpoints' logic against the Firestore emulator, with the change triggers' handler
 * called directly after each write (test/stack/delta.test.ts shows the real triggers firing).
 */
const findings = client(createFindingsApp());
const company = client(createCompanyApp());

type Vessel = Awaited<ReturnType<typeof seedVessel>>;
const findingsOf = (v: Vessel) => (path: string) => findings.get(path, v.key);

/** Writes a finding (or deletes it) and runs the trigger's handler, as the runtime would. */
async function changeFinding(v: Vessel, id: string, data: Record<string, unknown> | null) {
  const ref = findingRef(v.projectId, id);
  const before = await ref.get();
  if (data === null) await ref.delete();
  else await ref.set(data, { merge: true });
  await recordFindingChange(v.projectId, id, before);
}
async function newFinding(v: Vessel, id: string, fields: Record<string, unknown> = {}) {
  await seedFinding(v.projectId, v.companyId, fields, id);
  await recordFindingChange(v.projectId, id);
}

describe("GET /v1/findings/delta", () => {
  let v: Vessel;
  let other: Vessel;
  beforeAll(async () => {
    [v, other] = await Promise.all([seedVessel(), seedVessel()]);
    for (const id of ["f1", "f2", "f3", "f4", "f5"]) await newFinding(v, id);
    await newFinding(v, "f-hidden", { hidden: true });
    await newFinding(other, "f-other");
  });

  it("copies, then returns changes and removals since the token, never another vessel's rows", async () => {
    const first = await sync(findingsOf(v), "/v1/findings/delta", { limit: 2 });
    expect(first.pages).toBe(3);
    expect(summary(first.rows)).toEqual({ rows: ["f1", "f2", "f3", "f4", "f5"], removed: [] });

    await changeFinding(v, "f1", { hidden: true });
    await changeFinding(v, "f2", null);
    // An offline edit uploaded late: its app time is years old, the server's change time is now.
    await changeFinding(v, "f3", {
      title: "Edited offline",
      lastEditedDate: at("2020-01-01T00:00:00Z"),
    });
    await seedComment(v.projectId, "f4");
    await recordFindingChange(v.projectId, "f4");
    await seedFile(v.projectId, "f5");
    await recordFindingChange(v.projectId, "f5");
    await newFinding(v, "f-born-hidden", { hidden: true });
    await changeFinding(v, "f-hidden", { title: "still hidden" });
    await changeFinding(other, "f-other", { title: "other vessel" });

    const delta = await sync(findingsOf(v), "/v1/findings/delta", { deltaToken: first.deltaToken });
    expect(summary(delta.rows)).toEqual({
      rows: ["f3", "f4", "f5"],
      removed: ["f1:hidden", "f2:deleted"],
    });
    expect(delta.rows.find((r) => r.id === "f3")).toMatchObject({ title: "Edited offline" });
    const removal = delta.rows.find((r) => r.id === "f1")!;
    expect(Object.keys(removal).sort()).toEqual(["id", "removed"]);
    expect(Date.parse(removal.removed!.at)).toBeGreaterThan(Date.now() - 60_000);
    // The removal's time is its change record's, cut to the millisecond as every served date.
    const record = await firestore()
      .collection(`projects/${v.projectId}/findingChanges`)
      .doc("f1")
      .get();
    const changedAt = record.get("changedAt") as Timestamp;
    expect(removal.removed!.at).toBe(new Date(changedAt.toMillis()).toISOString());

    // Reusable: the same token answers the same changes again.
    const again = await sync(findingsOf(v), "/v1/findings/delta", { deltaToken: first.deltaToken });
    expect(summary(again.rows)).toEqual(summary(delta.rows));

    // Shown again: a full row; nothing else changed since.
    await changeFinding(v, "f1", { hidden: false });
    const next = await sync(findingsOf(v), "/v1/findings/delta", { deltaToken: delta.deltaToken });
    expect(summary(next.rows)).toEqual({ rows: ["f1"], removed: [] });
    const quiet = await sync(findingsOf(v), "/v1/findings/delta", { deltaToken: next.deltaToken });
    expect(quiet.rows).toEqual([]);
  });

  it("a finding hidden and deleted before the token never shows its id", async () => {
    const w = await seedVessel();
    await newFinding(w, "gone");
    await changeFinding(w, "gone", { hidden: true });
    const copy = await sync(findingsOf(w), "/v1/findings/delta");
    expect(copy.rows).toEqual([]);
    await changeFinding(w, "gone", null);
    const delta = await sync(findingsOf(w), "/v1/findings/delta", { deltaToken: copy.deltaToken });
    expect(delta.rows).toEqual([]);
  });

  it("pages a 500-row delta, each row once, in change order", async () => {
    const w = await seedVessel();
    const copy = await sync(findingsOf(w), "/v1/findings/delta");
    const ids = Array.from({ length: 500 }, (_, i) => `g${String(i).padStart(3, "0")}`);
    for (let i = 0; i < ids.length; i += 250) {
      const batch = firestore().batch();
      for (const id of ids.slice(i, i + 250))
        batch.set(
          findingRef(w.projectId, id),
          findingData(w.projectId, w.companyId, { title: id }),
        );
      await batch.commit();
    }
    for (const id of ids) await recordFindingChange(w.projectId, id);
    const delta = await sync(findingsOf(w), "/v1/findings/delta", {
      deltaToken: copy.deltaToken,
      limit: 120,
    });
    expect(delta.pages).toBe(5);
    expect(delta.rows.map((r) => r.id)).toEqual(ids);
  });

  it("never skips a change committed while a delta is paged", async () => {
    const w = await seedVessel();
    for (let i = 0; i < 12; i++) await newFinding(w, `r${String(i).padStart(2, "0")}`);
    const copy = await sync(findingsOf(w), "/v1/findings/delta", {
      limit: 4,
      // Raced with the full copy: a row already copied, one not yet copied, and a new one.
      between: async (page) => {
        if (page !== 1) return;
        await changeFinding(w, "r00", { title: "raced copied" });
        await changeFinding(w, "r11", { title: "raced uncopied" });
        await newFinding(w, "r-new-1");
      },
    });
    for (let i = 0; i < 12; i++)
      await changeFinding(w, `r${String(i).padStart(2, "0")}`, { title: `edit ${i}` });
    const raced: string[] = [];
    const delta = await sync(findingsOf(w), "/v1/findings/delta", {
      deltaToken: copy.deltaToken,
      limit: 4,
      between: async (page) => {
        // Rows already paged, rows still ahead, a new one, a removal.
        const id = ["r01", "r10", "r05", "r-new-2"][page - 1];
        if (!id) return;
        raced.push(id);
        if (id === "r-new-2") await newFinding(w, id);
        else if (id === "r05") await changeFinding(w, id, { hidden: true });
        else await changeFinding(w, id, { title: `raced ${id}` });
      },
    });
    expect(summary(copy.rows).rows).toEqual(expect.arrayContaining(["r00", "r11"]));
    expect(summary(delta.rows).rows).toEqual(expect.arrayContaining(["r00", "r11", "r-new-1"]));
    const next = await sync(findingsOf(w), "/v1/findings/delta", { deltaToken: delta.deltaToken });
    const seen = summary(next.rows);
    expect(raced.length).toBeGreaterThanOrEqual(3);
    for (const id of raced)
      expect([...seen.rows, ...seen.removed]).toContain(id === "r05" ? "r05:hidden" : id);
  });

  it("refuses a token older than the retention (410), another vessel's token and a mismatched page_token (400)", async () => {
    const old = Timestamp.fromMillis(Date.now() - 31 * 86_400_000);
    const scope = scopeDigest({ operation: "findingsDelta", tenant: v.projectId, delta: true });
    const expired = encodeToken(pageTokenSecrets(), scope, [old.seconds, old.nanoseconds]);
    const res = await findings.get(`/v1/findings/delta?delta_token=${expired}`, v.key);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe("resync_required");

    const theirs = await sync(findingsOf(other), "/v1/findings/delta");
    const foreign = await findings.get(
      `/v1/findings/delta?delta_token=${theirs.deltaToken}`,
      v.key,
    );
    expect(foreign.status).toBe(400);
    const listToken = (await findings.get("/v1/findings?limit=1", v.key)).body.next_page_token;
    const mixed = await findings.get(`/v1/findings/delta?page_token=${listToken}`, v.key);
    expect(mixed.status).toBe(400);
    const page = (await findings.get("/v1/findings/delta?limit=1", v.key)).body.next_page_token;
    const withDelta = await findings.get(
      `/v1/findings/delta?page_token=${page}&delta_token=${theirs.deltaToken}`,
      v.key,
    );
    expect(withDelta.status).toBe(400);
  });
});

describe("GET /v1/incidents/delta", () => {
  it("copies, then returns changed incidents and removals, never another company's", async () => {
    const [companyId, otherId] = await Promise.all([seedCompany(), seedCompany()]);
    const { key } = await seedKey({ api: "company", companyId, rateLimits: { perMinute: 10_000 } });
    const get = (path: string) => company.get(path, key);
    const write = async (co: string, id: string, data: Record<string, unknown> | null) => {
      const before = await incidentRef(co, id).get();
      if (data === null) await incidentRef(co, id).delete();
      else await incidentRef(co, id).set(data, { merge: true });
      await recordIncidentChange(co, id, before);
    };
    for (const id of ["i1", "i2", "i3"]) await write(companyId, id, incidentData());
    await write(otherId, "i-other", incidentData());
    const copy = await sync(get, "/v1/incidents/delta");
    expect(summary(copy.rows)).toEqual({ rows: ["i1", "i2", "i3"], removed: [] });

    // A status change of an incident of years ago: `from`/`to` of /v1/incidents never see it.
    await write(companyId, "i1", { status: "closed", eventDate: at("2019-05-01T00:00:00Z") });
    await write(companyId, "i2", { hidden: true });
    await write(companyId, "i3", null);
    await write(companyId, "i-born-hidden", incidentData({ hidden: true }));
    await write(otherId, "i-other", { status: "closed" });
    await write(companyId, "i-new", incidentData());
    const delta = await sync(get, "/v1/incidents/delta", { deltaToken: copy.deltaToken });
    expect(summary(delta.rows)).toEqual({
      rows: ["i-new", "i1"],
      removed: ["i2:hidden", "i3:deleted"],
    });
    expect(delta.rows.find((r: DeltaRow) => r.id === "i1")).toMatchObject({ status: "closed" });
  });
});
