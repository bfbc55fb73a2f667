// The memory figures of `npm run bench` (alone: npm run bench -- --memory): the API server's peak
// RSS under its heaviest pages, then each other function's at the concurrency it deploys with
// (scripts/benchInstances.mjs). The figures behind the memory and concurrency settings in
// src/config/runtime.ts (docs/benchmarks.md, "Memory").
import { instanceFigures } from "./benchInstances.mjs";
import * as seeds from "./benchSeeds.mjs";
import { startServer } from "./benchServer.mjs";

/** Simultaneous heavy pages measured; 16 is the `concurrency` set in src/config/runtime.ts. */
const CONCURRENT = [1, 8, 16, 24];

/**
 * Peak RSS of a fresh server process answering `n` pages at once (default: findings, 500 x 50),
 * over its resident size just before. Twice: the first such pages after start (one small
 * request has loaded the code and opened the Firestore channel), which also pay for compiling
 * the hot paths and growing the heap once; then the same again on the now warmed server, the
 * state of any instance that has served a few pages. The target applies to the warmed one.
 */
async function peakRss(
  heavy,
  n,
  api = "findings",
  path = "/v1/findings?limit=500",
  label = "500 x 50",
) {
  const { worker, base, ask } = await startServer(api);
  const get = (p) =>
    fetch(`${base}${p}`, { headers: { Authorization: `Bearer ${heavy.key}` } }).then(
      async (res) => ({ status: res.status, bytes: (await res.arrayBuffer()).byteLength }),
    );
  await get(path.replace("limit=500", "limit=1"));
  const pages = async () => {
    const idle = await ask("idle");
    const responses = await Promise.all(Array.from({ length: n }, () => get(path)));
    const peak = await ask("peak");
    return { idle, peak, responses };
  };
  const first = await pages();
  const warm = await pages();
  worker.kill();
  const ok = [...first.responses, ...warm.responses].every((r) => r.status === 200);
  const size = warm.responses[0].bytes / 1048576;
  const limit = warm.idle.rssMiB + 5 * size;
  const target =
    n === 1
      ? `; target <= idle + 5 x response = ${limit.toFixed(0)} MiB: ${warm.peak.rssMiB <= limit ? "ok" : "MISSED"}`
      : "";
  const over = ({ idle, peak }) => `+${(peak.rssMiB - idle.rssMiB).toFixed(0)} MiB`;
  const highest = Math.max(first.peak.rssMiB, warm.peak.rssMiB);
  return (
    `peak RSS, ${String(n).padStart(2)} x (${label})  ${highest.toFixed(0)} MiB at most; warmed ${over(warm)} over its idle ${warm.idle.rssMiB.toFixed(0)} MiB, ` +
    `first after start ${over(first)} over ${first.idle.rssMiB.toFixed(0)} MiB (${size.toFixed(1)} MiB per response; young generation ${warm.peak.youngMiB.toFixed(0)} MiB${ok ? "" : "; SOME FAILED"}${target})`
  );
}

export async function memoryFigures() {
  console.log("Seeding 500 findings with 50 checklist items each…");
  const heavy = await seeds.findings(500, 50);
  const lines = [];
  for (const n of CONCURRENT) lines.push(await peakRss(heavy, n));
  console.log("Seeding 500 incidents and 500 audit entries…");
  const companyId = await seeds.builders.seedCompany();
  const key = await seeds.builders.seedKey({
    api: "company",
    companyId,
    rateLimits: seeds.builders.UNLIMITED,
  });
  await seeds.incidents(companyId, 500);
  await seeds.auditEntries(companyId, key.prefix, 500);
  for (const n of [1, 16]) {
    lines.push(await peakRss(key, n, "company", "/v1/incidents?limit=500", "incidents 500"));
    lines.push(await peakRss(key, n, "company", "/v1/audit-logs?limit=500", "audit 500"));
  }
  lines.push(...(await instanceFigures()));
  return lines;
}
