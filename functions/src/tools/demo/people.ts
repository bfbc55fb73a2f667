import type { BulkWriter } from "firebase-admin/firestore";
import { firestore } from "../../config/firebase";
import { daysAgo, Rng } from "./random";

export const DEMO_COMPANY = "demo-nordic-shipping";
export const OTHER_COMPANY = "demo-other-company";

const DEPARTMENTS: Array<[string, string, string | null]> = [
  ["dep-fleet", "Fleet Operations", null],
  ["dep-technical", "Technical Superintendence", "dep-fleet"],
  ["dep-hse", "HSE", null],
  ["dep-crewing", "Crewing", null],
  ["dep-newbuild", "Newbuilding", "dep-technical"],
  ["dep-office", "Office", null],
];

const PEOPLE: Array<[string, string, string, string, boolean]> = [
  // uid, name, role, status, keyUser
  ["u-owner", "Ingrid Solberg", "owner", "active", true],
  ["u-manager", "Lars Eriksen", "manager", "active", false],
  ["u-insp1", "Marta Kowalska", "inspector", "active", false],
  ["u-insp2", "Tomas Lindqvist", "inspector", "active", false],
  ["u-insp3", "Aisha Rahman", "inspector", "active", false],
  ["u-std1", "Jonas Berg", "standard", "active", false],
  ["u-std2", "Elena Petrova", "standard", "active", false],
  ["u-std3", "Kenji Sato", "standard", "invited", false],
  ["u-std4", "Sofia Almeida", "standard", "invited", false],
  ["u-std5", "Peter Novak", "standard", "deactivated", false],
  ["u-std6", "Hanna Virtanen", "standard", "active", false],
  ["u-std7", "Oskar Nilsen", "standard", "active", false],
];

export const DEMO_PEOPLE = PEOPLE.map(([uid, name]) => ({ uid, name }));

export function writeCompanies(writer: BulkWriter): void {
  const db = firestore();
  const rng = new Rng(7);
  const seatsUsed = PEOPLE.filter(([, , , status]) => status !== "deactivated").length;
  // BulkWriter: close() awaits every write (demo/writeDemoData.ts).
  void writer.set(db.doc(`companies/${DEMO_COMPANY}`), {
    name: "Nordic Shipping AS",
    plan: "enterprise",
    apiAccess: { findingsExport: true, companyApi: true },
    seatCapacity: 25,
    seatsUsed,
    provisioningRoleMap: { Inspector: "inspector", "Fleet Manager": "manager" },
    provisioningDomains: ["demo.example"],
  });
  for (const [id, name, parentId] of DEPARTMENTS) {
    void writer.set(db.doc(`companies/${DEMO_COMPANY}/departments/${id}`), { name, parentId });
  }
  PEOPLE.forEach(([uid, displayName, role, status, keyUser], i) => {
    const created = daysAgo(700 - i * 40);
    void writer.set(db.doc(`users/${uid}`), {
      companyId: DEMO_COMPANY,
      email: `${uid}@private-canary.example`,
      displayName,
      avatarUrl: `https://avatars.private-canary.example/${uid}.png`,
      role,
      ...(keyUser ? { keyUser: true } : {}),
      status,
      departmentId: rng.pick(DEPARTMENTS)[0],
      createdAt: created,
      updatedAt: created,
      deactivatedAt: status === "deactivated" ? daysAgo(30) : null,
    });
  });
  void writer.set(db.doc(`companies/${OTHER_COMPANY}`), {
    name: "Other Tankers Ltd (must never leak)",
    plan: "enterprise",
    apiAccess: { findingsExport: true, companyApi: true },
    seatCapacity: 10,
    seatsUsed: 1,
  });
  void writer.set(db.doc(`users/u-other`), {
    companyId: OTHER_COMPANY,
    email: "other@private-canary.example",
    displayName: "Other Company Person",
    role: "owner",
    keyUser: true,
    status: "active",
    departmentId: null,
    createdAt: daysAgo(400),
    updatedAt: daysAgo(400),
    deactivatedAt: null,
  });
}
