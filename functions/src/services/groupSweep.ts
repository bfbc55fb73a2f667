import { Timestamp } from "firebase-admin/firestore";
import { findCompany } from "../repos/companies";
import { finishPage, pendingRematches, takePage } from "../repos/groupRematches";
import { clearDueMarks, usersDueBefore } from "../repos/scimGroups";
import { systemOrigin } from "../repos/userRematch";
import { applyGroupMap } from "./groupMap";

/** Members a request takes of a pending group re-match (the sweep takes 400 a page). */
export const REQUEST_PAGE = 200;
const SWEEP_PAGE = 400;

/**
 * One page of the group's pending re-match (a rename, a removal of every member not kept, a
 * deletion), its members' roles applied; answers whether more remain (`none`: nothing pending).
 */
export async function continueRematch(
  companyId: string,
  groupId: string,
  size = REQUEST_PAGE,
): Promise<"none" | "done" | "more"> {
  const page = await takePage(companyId, groupId, size);
  if (!page) return "none";
  await applyGroupMap(companyId, page.ids, page.origin);
  await finishPage(companyId, groupId, page);
  return page.last ? "done" : "more";
}

/** How long a pending mark waits for its request to finish it before the sweep does. */
export const SWEEP_AFTER_MS = 10 * 60_000;
/** How long one run of the sweep works (the job's timeout is 540 s). */
export const SWEEP_BUDGET_MS = 7 * 60_000;

/**
 * Marked users, `limit` a page, oldest first, until none is left or the time is up: those of a
 * live company get what their groups give (audited as `user.updated` by `system`); the marks of
 * users whose company is gone or unknown are cleared, so they never hold the queue. Answers how
 * many users it looked at.
 */
async function sweepMarks(cutoff: Timestamp, limit: number, deadline: number): Promise<number> {
  const origin = systemOrigin({ id: "group-sweep", name: "Group re-match sweep" });
  const seen = new Set<string>();
  while (Date.now() < deadline) {
    const page = await usersDueBefore(cutoff, limit);
    const due = page.filter(({ id }) => !seen.has(id));
    const byCompany = new Map<string, string[]>();
    const orphans: string[] = [];
    for (const { id, companyId } of due) {
      seen.add(id);
      if (companyId) byCompany.set(companyId, [...(byCompany.get(companyId) ?? []), id]);
      else orphans.push(id);
    }
    for (const [companyId, ids] of byCompany)
      if (await findCompany(companyId)) await applyGroupMap(companyId, ids, origin);
      else orphans.push(...ids);
    await clearDueMarks(orphans);
    // A page of users seen before (a mark that would not clear) ends the run rather than spin.
    if (page.length < limit || !due.length) break;
  }
  return seen.size;
}

/**
 * The `groupRoleSweep` job: the pending group re-matches, oldest first, page after page, then
 * the users marked more than 10 minutes ago without their role applied (an instance stopped in
 * between, and no retry), until done or `budgetMs` has passed. Answers the pages and users done.
 */
export async function sweepGroupRoles(
  now = Timestamp.now(),
  limit = 500,
  budgetMs = SWEEP_BUDGET_MS,
): Promise<{ pages: number; users: number }> {
  const deadline = Date.now() + budgetMs;
  let pages = 0;
  for (const { companyId, groupId } of await pendingRematches(100)) {
    while (Date.now() < deadline) {
      const state = await continueRematch(companyId, groupId, SWEEP_PAGE);
      if (state !== "none") pages++;
      if (state !== "more") break;
    }
  }
  const cutoff = Timestamp.fromMillis(now.toMillis() - SWEEP_AFTER_MS);
  return { pages, users: await sweepMarks(cutoff, limit, deadline) };
}
