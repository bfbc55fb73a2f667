import express from "express";
import request from "supertest";
import { logger } from "../support/logger";

/**
 * An API whose app fails to load answers the `internal` envelope with a request id (SCIM: a SCIM
 * error), not the platform's bare HTML 500, and the next request loads it again.
 */
let failures = 0;
jest.mock("../../src/company/app", () => ({
  createCompanyApp: () => {
    if (failures > 0) {
      failures--;
      throw new Error("module failed to initialise");
    }
    return (_req: express.Request, res: express.Response) => {
      res.json({ ok: true });
    };
  },
}));

// Imported after the mock: the function's lazy import then resolves to it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { companyApi } = require("../../src/functions/companyApi");

const server = express().use((req, res) => companyApi(req, res));

test("a failed load answers the envelope, and the next request loads the app", async () => {
  failures = 2;
  const first = await request(server).get("/v1/kpis");
  expect(first.status).toBe(500);
  expect(first.type).toBe("application/json");
  expect(first.body.error.code).toBe("internal");
  expect(first.body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(first.headers["x-request-id"]).toBe(first.body.error.request_id);
  expect(first.headers["cache-control"]).toBe("no-store");

  const scim = await request(server).get("/scim/v2/Users");
  expect(scim.status).toBe(500);
  expect(scim.type).toBe("application/scim+json");
  expect(JSON.parse(scim.text)).toMatchObject({
    schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"],
    status: "500",
  });

  const third = await request(server).get("/v1/kpis");
  expect(third.status).toBe(200);
  expect(third.body).toEqual({ ok: true });
});

test("the failure's log line cuts a long path to 512 characters, as audit entries do", async () => {
  // A fresh copy of the function: the one above has loaded its app by now.
  let fresh!: typeof companyApi;
  let freshLogger!: typeof logger;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    fresh = require("../../src/functions/companyApi").companyApi;
    freshLogger = jest.requireActual("firebase-functions/logger");
  });
  failures = 1;
  const error = jest.spyOn(freshLogger, "error").mockImplementation(() => undefined);
  // Not hex: the log masks any run of 64 hex digits.
  const path = `/v1/${"z".repeat(6_000)}`;
  const res = await request(express().use((req, r) => fresh(req, r))).get(path);
  expect(res.status).toBe(500);
  const logged = JSON.stringify(error.mock.calls);
  error.mockRestore();
  expect(logged).toContain(`"path":"${path.slice(0, 511)}…"`);
  expect(logged).not.toContain(path.slice(0, 600));
});
