import express from "express";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { EXIT_AFTER_MS, loadOrExit } from "../../src/lib/lazy";
import { logger } from "../support/logger";

/**
 * Code that fails to load at its first use ends the instance (Node keeps a failed ES module
 * failed for the life of the process): the caller answers, then the process exits. Here the
 * app's module itself throws while loading, unlike appUnavailable.test.ts, where the module loads
 * and building the app fails (retried by the next request).
 */
jest.mock("../../src/company/app", () => {
  throw new Error("chunk failed to load");
});
// Imported after the mock: the function's lazy import then resolves to it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { companyApi } = require("../../src/functions/companyApi");

const exit = jest.spyOn(process, "exit").mockImplementation((() => undefined) as never);
const waitPastExit = () => new Promise((r) => setTimeout(r, EXIT_AFTER_MS + 200));

afterEach(() => {
  exit.mockClear();
  // Set by the failures under test; the test run itself must not end with it.
  process.exitCode = undefined;
});

test("a load that succeeds returns the module and ends nothing", async () => {
  await expect(loadOrExit(async () => ({ answer: 42 }))).resolves.toEqual({ answer: 42 });
  await waitPastExit();
  expect(exit).not.toHaveBeenCalled();
  expect(process.exitCode).toBeUndefined();
});

test("a failed load is thrown to the caller, and the process exits 2 s later", async () => {
  const failure = new Error("ERR_MODULE_NOT_FOUND");
  await expect(loadOrExit(() => Promise.reject(failure))).rejects.toBe(failure);
  expect(process.exitCode).toBe(1);
  expect(exit).not.toHaveBeenCalled();
  await waitPastExit();
  expect(exit).toHaveBeenCalledWith(1);
});

test("an API whose app fails to load answers the envelope, then the instance exits", async () => {
  const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
  const server = express().use((req, res) => companyApi(req, res));
  const res = await request(server).get("/v1/kpis");
  expect(error).toHaveBeenCalledWith(
    "api.request_failed",
    expect.objectContaining({ message: "chunk failed to load" }),
    expect.objectContaining({ api: "company", method: "GET", path: "/v1/kpis" }),
  );
  error.mockRestore();
  expect(res.status).toBe(500);
  expect(res.body.error.code).toBe("internal");
  expect(res.body.error.message).toMatch(/^The service could not start; retry with backoff/);
  expect(process.exitCode).toBe(1);
  await waitPastExit();
  expect(exit).toHaveBeenCalledWith(1);
});

test("every function loads its code at first use through loadOrExit", () => {
  const dir = join(__dirname, "../../src/functions");
  const bare: string[] = [];
  let wrapped = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    for (const [at] of source.matchAll(/(loadOrExit\(\s*\(\) => )?import\(/g)) {
      if (at.startsWith("loadOrExit")) wrapped++;
      else bare.push(file);
    }
  }
  expect(bare).toEqual([]);
  // The two APIs, the ten callables, four in the triggers, the three jobs and the sign-in.
  expect(wrapped).toBe(20);
});
