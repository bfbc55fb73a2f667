import { Timestamp } from "firebase-admin/firestore";
import { findCompany } from "../repos/companies";
import { finishPage, pendingRematches, restartRematch, takePage } from "../repos/groupRematches";
import { clearDueMarks, groupIdsOf, usersDueBefore } from "../repos/scimGroups";
import { systemOrigin } from "../repos/userRematch";
import { applyGroupMap } from "./groupMap";

/** Members a request takes of a pending group re-match (the sweep takes 400 a page). */
export const REQUEST_PAGE = 200;
const SWEEP_PAGE = 400;

/**
 * One page of the group's pending re-match (a rename, a removal of every member not kept, a
 * deletion), its members' roles applied; answers whether more remain (`none`: nothing pending)
 * and the version of the record the page was of.
 */
export async function continueRematch(
  companyId: string,
  groupId: string,
  size = REQUEST_PAGE,
): Promise<{ state: "none" | "done" | "more"; version?: string }> {
  const page = await takePage(companyId, groupId, size);
  if (!page) return { state: "none" };
  await applyGroupMap(companyId, page.ids, page.origin);
  await finishPage(companyId, groupId, page);
  return { state: page.last ? "done" : "more", version: page.version };
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
 * The `groupRoleSweep` job, until done or `budgetMs` has passed: first the users marked more than
 * 10 minutes ago without their role applied (an instance stopped in between, and no retry), for
 * at most half the budget; then the pending group re-matches a page each in turn, so that no one
 * group (nor one company renaming a group again and again) holds the others back: a record
 * restarted by a new change while the run follows it is left to that change's requests and the
 * next run. Answers the pages and users done.
 */
export async function sweepGroupRoles(
  now = Timestamp.now(),
  limit = 500,
  budgetMs = SWEEP_BUDGET_MS,
): Promise<{ pages: number; users: number }> {
  const start = Date.now();
  const deadline = start + budgetMs;
  const cutoff = Timestamp.fromMillis(now.toMillis() - SWEEP_AFTER_MS);
  const users = await sweepMarks(cutoff, limit, start + budgetMs / 2);
  let pages = 0;
  type Turn = { companyId: string; groupId: string; version?: string };
  let turn: Turn[] = await pendingRematches(100);
  while (turn.length && Date.now() < deadline) {
    const next: Turn[] = [];
    for (const record of turn) {
      if (Date.now() >= deadline) break;
      const { state, version } = await continueRematch(
        record.companyId,
        record.groupId,
        SWEEP_PAGE,
      );
      if (state !== "none") pages++;
      const same = record.version === undefined || record.version === version;
      if (state === "more" && same) next.push({ ...record, version });
    }
    turn = next;
  }
  return { pages, users };
}

/** How long the `roleRematch` trigger works on a map change's pages (its timeout is 540 s). */
export const REMATCH_BUDGET_MS = 6 * 60_000;

/**
 * After a change of the group map (the `roleRematch` trigger): every group of the company gets a
 * pending re-match, so no group's member list is read whole; their pages are taken here one after
 * another for up to `budgetMs` (audited as `user.updated` by `system`), the rest by the sweep.
 * Answers the pages done.
 */
export async function rematchGroups(
  companyId: string,
  budgetMs = REMATCH_BUDGET_MS,
): Promise<number> {
  const deadline = Date.now() + budgetMs;
  const origin = systemOrigin({ id: "group-rematch", name: "Group re-match" });
  const groups = await groupIdsOf(companyId);
  for (const groupId of groups) await restartRematch(companyId, groupId, origin);
  let pages = 0;
  for (const groupId of groups) {
    let state = "more";
    while (state === "more" && Date.now() < deadline) {
      ({ state } = await continueRematch(companyId, groupId, SWEEP_PAGE));
      pages++;
    }
  }
  return pages;
}
