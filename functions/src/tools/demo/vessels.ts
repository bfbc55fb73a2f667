import { type BulkWriter } from "firebase-admin/firestore";
import { firestore } from "../../config/firebase";
import { DEMO_COMPANY, OTHER_COMPANY } from "./people";
import { daysAgo, Rng } from "./random";

import { writeFinding, type VesselPlan } from "./demoFindings";

export const VESSEL_A = "demo-vessel-a";
export const VESSEL_B = "demo-vessel-b";
export const OTHER_VESSEL = "demo-other-vessel";

function writeProject(writer: BulkWriter, plan: VesselPlan, imo: string): void {
  // BulkWriter: close() awaits every write (demo/writeDemoData.ts).
  void writer.set(firestore().doc(`projects/${plan.projectId}`), {
    companyId: plan.companyId,
    name: plan.name,
    customerProjectId: `CP-${imo}`,
    status: "Dry-dock 2026",
    currentMilestone: "Docking",
    isClosed: false,
    dateCreated: daysAgo(400),
    projectProgress: 62.5,
    findingsCounter: plan.findings,
    findingsCounterIsCorrected: plan.findings - 3,
    inspectionsCounter: 14,
    issuesCounter: 9,
    vessel: { imo, flag: "NO", type: "Bulk carrier", built: 2011, lastDrydock: daysAgo(900) },
    classification: { society: "DNV", classNotation: "+1A Bulk Carrier" },
    propulsion: { mainEngine: "MAN B&W 6S50MC-C", powerKw: 9480 },
    survey: { type: "Special survey", due: "2026-12-31" },
    claim: {},
    client: { name: "Nordic Chartering" },
    budget: { total: 1_250_000, currency: "private-canary-budget" },
    hoursSpent: 987_654_321,
    drawings: ["gs://private-canary-drawings/ga-plan.pdf"],
    internalNotes: "private-canary-internal-notes",
  });
}

export function writeVessels(writer: BulkWriter): void {
  const plans: Array<[VesselPlan, string]> = [
    [
      {
        projectId: VESSEL_A,
        companyId: DEMO_COMPANY,
        name: "MV Nordic Star",
        findings: 320,
        seed: 11,
      },
      "9400001",
    ],
    [
      {
        projectId: VESSEL_B,
        companyId: DEMO_COMPANY,
        name: "MV Nordic Wind",
        findings: 40,
        seed: 12,
      },
      "9400002",
    ],
    [
      {
        projectId: OTHER_VESSEL,
        companyId: OTHER_COMPANY,
        name: "MT Other Secret",
        findings: 20,
        seed: 13,
      },
      "9400003",
    ],
  ];
  for (const [plan, imo] of plans) {
    writeProject(writer, plan, imo);
    const rng = new Rng(plan.seed);
    for (let n = 1; n <= plan.findings; n++) writeFinding(writer, plan, rng, n);
  }
}
