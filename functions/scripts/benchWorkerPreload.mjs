// Preloaded (--import) into a cold-start worker by scripts/benchColdStart.mjs: times, inside the
// worker, the Functions emulator runtime's `require(process.cwd())`, its load of the function's
// code (functionsEmulatorRuntime.js, loadTriggers), and writes to BENCH_LOAD_FILE the worker's CPU
// before that load and the load's own CPU and wall ms. No file means the runtime never made that
// call: the bench then fails rather than print a share it did not measure.
import { writeFileSync } from "node:fs";
import Module from "node:module";

const cpuMs = (usage) => (usage.user + usage.system) / 1e3;
const load = Module._load;
Module._load = function timedLoad(request, ...rest) {
  if (request !== process.cwd()) return load.call(this, request, ...rest);
  Module._load = load;
  const start = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  try {
    return load.call(this, request, ...rest);
  } finally {
    const figures = {
      runtimeCpu: cpuMs(start),
      loadCpu: cpuMs(process.cpuUsage(start)),
      loadMs: Number(process.hrtime.bigint() - t0) / 1e6,
    };
    writeFileSync(process.env.BENCH_LOAD_FILE, JSON.stringify(figures));
  }
};
