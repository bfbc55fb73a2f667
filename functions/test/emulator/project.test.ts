import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { createFindingsApp } from "../../src/findings/app";
import type { GetProjectResponse } from "../../src/findings/getProject";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { client } from "../support/http";

const findings = client(createFindingsApp());
const CANARY = "private-canary";

describe("GET /v1/project", () => {
  it("returns the allow-listed project record, in snake_case, with ISO timestamps", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId, {
      name: "MV Test",
      customerProjectId: "C-1",
      status: "Dry-dock",
      isClosed: true,
      dateCreated: Timestamp.fromDate(new Date("2025-02-03T04:05:06.789Z")),
      currentMilestone: "Undocking",
      projectProgress: 42.5,
      findingsCounter: 7,
      findingsCounterIsCorrected: 6,
      inspectionsCounter: 3,
      issuesCounter: 2,
      vessel: {
        imo: "9999999",
        lastDrydock: Timestamp.fromDate(new Date("2024-01-01T00:00:00Z")),
        position: new GeoPoint(1.5, 2.5),
      },
      classification: { society: "DNV" },
      propulsion: { kw: 1000 },
      survey: { nested: { deep: [1, 2] } },
      claim: {},
      client: { name: "Client" },
      budget: { total: 1, note: `${CANARY}-budget` },
      hoursSpent: `${CANARY}-hours`,
      drawings: [`${CANARY}-drawing.pdf`],
      internalNotes: `${CANARY}-notes`,
    });
    const key = await seedKey({ api: "findings", companyId, projectId });
    const res = await findings.get("/v1/project", key.key);
    expect(res.status).toBe(200);
    const body = res.body as GetProjectResponse;
    expect(body).toEqual({
      data: {
        id: projectId,
        name: "MV Test",
        company_id: companyId,
        customer_project_id: "C-1",
        status: "Dry-dock",
        is_closed: true,
        date_created: "2025-02-03T04:05:06.789Z",
        current_milestone: "Undocking",
        project_progress: 42.5,
        findings_counter: 7,
        findings_counter_is_corrected: 6,
        inspections_counter: 3,
        issues_counter: 2,
        vessel: {
          imo: "9999999",
          lastDrydock: "2024-01-01T00:00:00.000Z",
          position: { latitude: 1.5, longitude: 2.5 },
        },
        classification: { society: "DNV" },
        propulsion: { kw: 1000 },
        survey: { nested: { deep: [1, 2] } },
        claim: {},
        client: { name: "Client" },
      },
    });
    expect(res.text).not.toContain(CANARY);
    expect(res.text).not.toMatch(/budget|hours_?spent|drawings|internal_?notes/i);
  });

  it("maps absent optional fields to null, false and empty objects", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId });
    // Older documents may miss fields entirely: absent and null mean the same.
    const { firestore } = await import("../../src/config/firebase");
    await firestore().doc(`projects/${projectId}`).set({ companyId, name: "Bare" });
    const res = await findings.get("/v1/project", key.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Bare",
      customer_project_id: null,
      status: null,
      is_closed: false,
      date_created: null,
      project_progress: null,
      vessel: {},
      client: {},
    });
  });

  it("never returns another project, whatever is asked", async () => {
    const companyId = await seedCompany();
    const mine = await seedProject(companyId, { name: "Mine" });
    await seedProject(companyId, { name: "Theirs" });
    const key = await seedKey({ api: "findings", companyId, projectId: mine });
    expect((await findings.get("/v1/project?project_id=other", key.key)).status).toBe(400);
    const res = await findings.get("/v1/project", key.key);
    expect(res.body.data.id).toBe(mine);
  });
});
