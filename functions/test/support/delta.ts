import { firestore } from "../../src/config/firebase";
import { CANARY, at } from "./findingBuilders";

/** What a delta page holds: full rows (with an id) and removals. */
export interface DeltaRow {
  id: string;
  removed?: { reason: "hidden" | "deleted"; at: string };
  [field: string]: unknown;
}
export interface DeltaBody {
  data: DeltaRow[];
  next_page_token: string | null;
  delta_token: string | null;
}
type Get = (path: string) => Promise<{ status: number; body: unknown }>;

/**
 * The integrator's loop over one delta endpoint: a full copy (no `deltaToken`) or the changes
 * since `deltaToken`, every page (repeating `delta_token` beside `page_token`), with
 * `between(n)` run after page n. Fails on anything but 200, and if a page before the last
 * carries a delta_token or the last lacks one.
 */
export async function sync(
  get: Get,
  path: string,
  options: { deltaToken?: string; limit?: number; between?: (page: number) => Promise<void> } = {},
): Promise<{ rows: DeltaRow[]; deltaToken: string; pages: number }> {
  const rows: DeltaRow[] = [];
  let pageToken: string | null = null;
  for (let pages = 1; pages <= 1000; pages++) {
    const qs = new URLSearchParams({ limit: String(options.limit ?? 100) });
    if (options.deltaToken) qs.set("delta_token", options.deltaToken);
    if (pageToken) qs.set("page_token", pageToken);
    const res = await get(`${path}?${qs.toString()}`);
    if (res.status !== 200)
      throw new Error(`${path} page ${pages}: ${res.status} ${JSON.stringify(res.body)}`);
    const body = res.body as DeltaBody;
    rows.push(...body.data);
    pageToken = body.next_page_token;
    if (pageToken === null) {
      if (!body.delta_token) throw new Error("the last page has no delta_token");
      return { rows, deltaToken: body.delta_token, pages };
    }
    if (body.delta_token !== null) throw new Error("a page before the last has a delta_token");
    await options.between?.(pages);
  }
  throw new Error(`${path}: more than 1000 pages`);
}

/** Ids of full rows, and removals as `id:reason`, each sorted. */
export const summary = (rows: DeltaRow[]) => ({
  rows: [...new Set(rows.filter((r) => !r.removed).map((r) => r.id))].sort(),
  removed: [
    ...new Set(rows.flatMap((r) => (r.removed ? [`${r.id}:${r.removed.reason}`] : []))),
  ].sort(),
});

export function incidentData(fields: Record<string, unknown> = {}) {
  return {
    reference: "INC-2026-0001",
    title: "Slip on deck",
    description: "Wet deck near the gangway.",
    eventDate: at("2026-03-01T10:00:00Z"),
    reportedAt: at("2026-03-01T11:00:00Z"),
    status: "reported",
    type: "injury",
    workRelated: true,
    recordable: true,
    fatality: false,
    personType: "employee",
    daysLost: 3,
    locationId: "loc1",
    departmentId: "dep-hse",
    reportedBy: "u1",
    reportedByName: "Reporter",
    reportedByEmail: `reporter@${CANARY}.example`,
    ...fields,
  };
}

export const incidentRef = (companyId: string, id: string) =>
  firestore().doc(`companies/${companyId}/incidents/${id}`);
export const findingRef = (projectId: string, id: string) =>
  firestore().doc(`projects/${projectId}/findings/${id}`);
