import { onSchedule } from "firebase-functions/v2/scheduler";
import { jobOptions } from "../config/runtime";
import { loadOrExit } from "../lib/lazy";
import { jobFinished } from "../logs";

/** The daily KPI rollup of every company with the company API on (GET /v1/kpis serves it). */
export const kpiRollupDaily = onSchedule(
  { ...jobOptions, schedule: "every day 02:30", timeZone: "Etc/UTC" },
  async () => {
    const { refreshAllRollups } = await loadOrExit(() => import("../services/rollupJob"));
    jobFinished("kpi_rollup.daily", await refreshAllRollups());
  },
);

/**
 * Provisioning's half-done work (an instance stopped between Firebase Auth and the roster):
 * every 10 minutes, the oldest 200 intents older than 10 minutes are settled, so Auth follows
 * the roster within 20 minutes (docs/provisioning-crash-safety.md).
 */
export const accountIntentSweep = onSchedule(
  { ...jobOptions, schedule: "every 10 minutes", timeZone: "Etc/UTC" },
  async () => {
    const { sweepAccountIntents } = await loadOrExit(() => import("../services/users/accountSync"));
    jobFinished("provisioning.intent_sweep", await sweepAccountIntents());
  },
);

/**
 * SCIM group changes left to finish: every 10 minutes, for up to 7, the pending re-matches of
 * large groups page by page, then the users marked due more than 10 minutes ago (an instance
 * stopped before applying their role) get what their groups give (docs/firestore-data.md,
 * `groupRematches` and `groupRoleDueAt`).
 */
export const groupRoleSweep = onSchedule(
  { ...jobOptions, schedule: "every 10 minutes", timeZone: "Etc/UTC" },
  async () => {
    const { sweepGroupRoles } = await loadOrExit(() => import("../services/groupSweep"));
    jobFinished("group.role_sweep", await sweepGroupRoles());
  },
);
