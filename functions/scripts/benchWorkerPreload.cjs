// Preloaded (--require) into a cold-start worker by scripts/benchColdStart.mjs: takes, inside the
// worker and from one clock (process.cpuUsage), the worker's CPU at four points: when the Functions
// emulator runtime requires the functions directory (functionsEmulatorRuntime.js, loadTriggers),
// when that require returns (our module load: the package's main and what it loads at once), when
// the first request reaches the runtime's HTTP server, and when its answer is sent. Written to
// BENCH_LOAD_FILE at the answer, and only if the require succeeded: no file means the runtime never
// made that call (or loaded our code another way), and the bench then fails rather than print a
// figure it did not measure. A CommonJS preload, so that no ES-module loader starts before the
// runtime's own code asks for one.
const Module = require("node:module");
const http = require("node:http");
const { renameSync, writeFileSync } = require("node:fs");

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
};
const points = {};
const load = Module._load;
Module._load = function timedLoad(request, ...rest) {
  if (request !== process.cwd()) return load.call(this, request, ...rest);
  Module._load = load;
  points.required = cpuMs();
  const exported = load.call(this, request, ...rest);
  points.loaded = cpuMs();
  return exported;
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function firstRequest(event, req, res) {
  if (event === "request") {
    http.Server.prototype.emit = emit;
    points.arrived = cpuMs();
    res.on("finish", () => {
      points.answered = cpuMs();
      const file = process.env.BENCH_LOAD_FILE;
      if (points.loaded === undefined || !file) return;
      // Written aside and renamed into place: the bench polls for the file and must never read it
      // half written (it once read it empty, and the whole run stopped).
      writeFileSync(`${file}.part`, JSON.stringify(points));
      renameSync(`${file}.part`, file);
    });
  }
  return emit.apply(this, arguments);
};
