import type { BulkWriter } from "firebase-admin/firestore";
import { firestore } from "../../config/firebase";
import { DEMO_COMPANY, DEMO_PEOPLE, OTHER_COMPANY } from "./people";
import { daysAgo, DEMO_NOW, pad, Rng } from "./random";

const INCIDENT_STATUSES = ["reported", "under_investigation", "action_required", "closed"];
const INCIDENT_TYPES = [
  "injury",
  "ill_health",
  "near_miss",
  "dangerous_occurrence",
  "property_damage",
  "environmental",
];
const PERSON_TYPES = ["employee", "non_employee", "other_worker", "visitor", null];
const MONTHS = 30;

/** `YYYY-MM` of the month `back` months before the dataset's "now". */
function monthKey(back: number): string {
  const d = new Date(DEMO_NOW);
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - back);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}`;
}

function writeIncidents(
  writer: BulkWriter,
  companyId: string,
  rng: Rng,
  perMonth: [number, number],
): void {
  let seq = 0;
  for (let back = MONTHS; back >= 1; back--) {
    for (let i = 0; i < rng.int(...perMonth); i++) {
      seq++;
      const days = back * 30 - rng.int(0, 29);
      const type = rng.pick(INCIDENT_TYPES);
      const injury = type === "injury" || type === "ill_health";
      const fatality = injury && seq % 97 === 0;
      const reporter = rng.pick(DEMO_PEOPLE);
      const eventDate = daysAgo(days, rng.int(0, 1439));
      // BulkWriter: close() awaits every write (demo/writeDemoData.ts).
      void writer.set(firestore().doc(`companies/${companyId}/incidents/inc${pad(seq)}`), {
        reference: `INC-${eventDate.toDate().getUTCFullYear()}-${pad(seq)}`,
        title: `${type.replace("_", " ")} incident ${seq}`,
        description: "Recorded from the demo dataset.",
        eventDate,
        reportedAt: daysAgo(days - 1),
        status: back > 2 ? "closed" : rng.pick(INCIDENT_STATUSES),
        type,
        workRelated: rng.chance(0.9),
        recordable: injury && rng.chance(0.6),
        fatality,
        personType: rng.pick(PERSON_TYPES),
        daysLost: injury ? rng.int(0, 12) : 0,
        locationId: `loc${rng.int(1, 4)}`,
        departmentId: rng.pick(["dep-fleet", "dep-technical", "dep-hse", null]),
        reportedBy: reporter.uid,
        reportedByName: reporter.name,
        reportedByEmail: `${reporter.uid}@private-canary.example`,
        ...(seq % 29 === 0 ? { hidden: true } : {}),
      });
    }
  }
}

function writeWorkedHours(writer: BulkWriter, companyId: string, rng: Rng): void {
  for (let back = MONTHS; back >= 1; back--) {
    const month = monthKey(back);
    const coll = `companies/${companyId}/workedHours`;
    void writer.set(firestore().doc(`${coll}/app-${month}-a`), {
      month,
      hours: rng.int(8000, 9000),
      source: "app",
      updatedAt: daysAgo(back * 30 - 3),
    });
    if (back % 3 === 0)
      void writer.set(firestore().doc(`${coll}/app-${month}-b`), {
        month,
        hours: rng.int(100, 500),
        source: "app",
        updatedAt: daysAgo(back * 30 - 4),
      });
    if (back <= 12)
      void writer.set(firestore().doc(`${coll}/api_${month}`), {
        month,
        hours: rng.int(2000, 2500),
        source: "api",
        updatedAt: daysAgo(back * 30 - 5),
      });
  }
}

function writeKpiSources(writer: BulkWriter, companyId: string, rng: Rng): void {
  const collections: Record<string, string[]> = {
    actions: ["open", "in_progress", "closed"],
    inspections: ["planned", "completed"],
    assets: ["in_service", "out_of_service"],
    riskAssessments: ["draft", "approved"],
    locations: ["active", "archived"],
  };
  for (const [name, statuses] of Object.entries(collections)) {
    for (let i = 1; i <= 40; i++) {
      void writer.set(firestore().doc(`companies/${companyId}/${name}/${name}-${pad(i, 3)}`), {
        createdAt: daysAgo(rng.int(1, MONTHS * 30)),
        status: rng.pick(statuses),
      });
    }
  }
}

export function writeSafetyData(writer: BulkWriter): void {
  const rng = new Rng(21);
  writeIncidents(writer, DEMO_COMPANY, rng, [2, 6]);
  writeWorkedHours(writer, DEMO_COMPANY, rng);
  writeKpiSources(writer, DEMO_COMPANY, rng);
  for (const year of [2024, 2025, 2026]) {
    void writer.set(firestore().doc(`companies/${DEMO_COMPANY}/healthSafetyCoverage/${year}`), {
      headcount: 180 + (year - 2024) * 10,
      coveredHeadcount: 170 + (year - 2024) * 10,
      auditedHeadcount: 120 + (year - 2024) * 15,
      certificationStandards: ["ISO 45001"],
    });
  }
  writeIncidents(writer, OTHER_COMPANY, new Rng(22), [0, 2]);
}
