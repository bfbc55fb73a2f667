import { defineInt, defineString } from "firebase-functions/params";
import { REGION } from "./constants";

/**
 * Production settings of the functions (docs/operations.md, "Deployment"). Every function runs
 * 1 vCPU, said here: without it firebase-tools gives a new function 1 but keeps an existing one's
 * CPU, and concurrency above 1 needs a whole vCPU. The APIs run 1 GiB with up to 16 requests at
 * once: 16 worst-case pages fit with room to spare (docs/benchmarks.md, "Memory"). Each other
 * function's concurrency is said here too, not left to firebase-tools' default of 80; `npm run
 * bench -- --memory` measures one function of each kind at it.
 */
export const MAX_INSTANCES = defineInt("MAX_INSTANCES", {
  default: 10,
  description:
    "Cost ceiling: most instances each API may scale to (10 x 16 = 160 requests at once).",
});

export const RUNTIME_SERVICE_ACCOUNT = defineString("RUNTIME_SERVICE_ACCOUNT", {
  default: "safety-apis-runtime@",
  description:
    "Dedicated runtime service account (`name@` means " +
    "name@PROJECT.iam.gserviceaccount.com). It needs roles/datastore.user " +
    "on the project and roles/iam.serviceAccountTokenCreator on itself (signing links); " +
    "see docs/operations.md.",
});

export const shared = {
  region: REGION,
  serviceAccount: RUNTIME_SERVICE_ACCOUNT,
  maxInstances: MAX_INSTANCES,
  cpu: 1,
};

/**
 * Who may reach the two APIs: everyone (the default), or only Google's load balancers once the
 * Cloud Armor front door is in place (docs/operations.md, "Deployment":
 * `API_INGRESS=ALLOW_INTERNAL_AND_GCLB` in `functions/.env.<project>`). Read from the environment
 * when the deploy loads the code: an ingress is a deploy-time setting, not a runtime param.
 */
export const API_INGRESS: "ALLOW_ALL" | "ALLOW_INTERNAL_AND_GCLB" =
  process.env.API_INGRESS === "ALLOW_INTERNAL_AND_GCLB" ? "ALLOW_INTERNAL_AND_GCLB" : "ALLOW_ALL";

export const apiOptions = {
  ...shared,
  ingressSettings: API_INGRESS,
  memory: "1GiB" as const,
  concurrency: 16,
  // A 500-finding page answers in well under a second and 500 signed links in a few seconds;
  // 60 s bounds a stuck Firestore call without cutting off a slow legitimate page.
  timeoutSeconds: 60,
};

/**
 * The console's callables read and write a handful of documents: the smallest size suffices.
 * A console is a few people: 10 calls at once (the usage chart's 30 count queries a call went
 * past three quarters of 256 MiB at the default 80).
 */
export const callableOptions = {
  ...shared,
  memory: "256MiB" as const,
  concurrency: 10,
  timeoutSeconds: 30,
};

/**
 * Report callables run dozens of aggregation queries in parallel: more room and time than key
 * management, the same 10 calls at once.
 */
export const reportCallableOptions = {
  ...shared,
  memory: "512MiB" as const,
  concurrency: 10,
  timeoutSeconds: 120,
};

/**
 * The change triggers (docs/firestore-data.md, "Change records"): one small transaction each;
 * retried on failure, which is safe because each run rewrites the record from the current state.
 * 20 at once: each event arrives with the document before and after, decoded whole, and a
 * finding may be near Firestore's 1 MiB.
 */
export const triggerOptions = {
  ...shared,
  memory: "256MiB" as const,
  concurrency: 20,
  timeoutSeconds: 60,
  retry: true,
};

/**
 * The scheduled jobs (the daily rollup of every company: a few companies at once, each a bounded
 * set of queries; the sweeps, page by page): one run at a time.
 */
export const jobOptions = {
  ...shared,
  memory: "512MiB" as const,
  concurrency: 1,
  timeoutSeconds: 540,
  retryCount: 1,
};

/**
 * The rematch triggers (a company's role or group map, a department): a real rematch reads the
 * company's matching users in one query, so one at a time; almost every event (any other write of
 * the company) returns at once. Retried on failure: each run converges on the current state.
 */
export const rematchOptions = {
  ...shared,
  memory: "512MiB" as const,
  concurrency: 1,
  timeoutSeconds: 540,
  retry: true,
};
