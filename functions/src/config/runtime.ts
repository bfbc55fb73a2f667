import { defineInt, defineString } from "firebase-functions/params";
import { REGION } from "./constants";

/**
 * Production settings of the functions (docs/operations.md, "Deployment"). The APIs run 1 vCPU
 * and 1 GiB with up to 16 requests at once: 16 worst-case pages fit with room to spare
 * (docs/benchmarks.md, "Memory"), and concurrency above 1 needs a whole vCPU anyway. Every other
 * function gets 1 vCPU too (the gen2 default), and a concurrency under which `npm run bench --
 * --memory` measures its peak within three quarters of its memory.
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

const shared = {
  region: REGION,
  serviceAccount: RUNTIME_SERVICE_ACCOUNT,
  maxInstances: MAX_INSTANCES,
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
  cpu: 1,
  concurrency: 16,
  // A 500-finding page answers in well under a second and 500 signed links in a few seconds;
  // 60 s bounds a stuck Firestore call without cutting off a slow legitimate page.
  timeoutSeconds: 60,
};

/**
 * The console's callables read and write a handful of documents: the smallest size suffices, 10
 * calls at once (the usage chart's 30 count queries a call passed 256 MiB at the default 80).
 */
export const callableOptions = {
  ...shared,
  memory: "256MiB" as const,
  concurrency: 10,
  timeoutSeconds: 30,
};

/**
 * Report callables run dozens of aggregation queries in parallel: more room and time than key
 * management.
 */
export const reportCallableOptions = {
  ...shared,
  memory: "512MiB" as const,
  concurrency: 80,
  timeoutSeconds: 120,
};

/**
 * The change triggers (docs/firestore-data.md, "Change records"): one small transaction each;
 * retried on failure, which is safe because each run rewrites the record from the current state.
 */
export const triggerOptions = {
  ...shared,
  memory: "256MiB" as const,
  concurrency: 80,
  timeoutSeconds: 60,
  retry: true,
};

/** The daily rollup of every company: a few companies at once, each a bounded set of queries. */
export const jobOptions = {
  ...shared,
  memory: "512MiB" as const,
  timeoutSeconds: 540,
  retryCount: 1,
};
