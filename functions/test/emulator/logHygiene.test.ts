import { DocumentReference, Firestore } from "firebase-admin/firestore";
import { join } from "node:path";
import { createFindingsApp } from "../../src/findings/app";
import { generateKey, hashKey } from "../../src/lib/apiKeyFormat";
import { LINES_PER_WINDOW } from "../../src/logs";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { client, randomAddress } from "../support/http";

/**
 * What reaches Cloud Logging: the lines firebase-functions' logger really writes (the JSON it
 * hands to the console it captured at load), not the arguments of our log functions.
 */
const consoleOfLogger = jest.requireActual<{
  UNPATCHED_CONSOLE: Record<"debug" | "info" | "log" | "warn" | "error", (line: string) => void>;
}>(join(__dirname, "../../node_modules/firebase-functions/lib/logger/common.js")).UNPATCHED_CONSOLE;

function captureLines(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const spies = (["debug", "info", "log", "warn", "error"] as const).map((level) =>
    jest.spyOn(consoleOfLogger, level).mockImplementation((line: string) => {
      lines.push(line);
    }),
  );
  return { lines, restore: () => spies.forEach((s) => s.mockRestore()) };
}

const findings = client(createFindingsApp());
const SHA256 = /[0-9a-f]{64}/i;

describe("log lines", () => {
  it("a 500 logs the Error (its stack, for Error Reporting) with a stable event, and no key hash", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId });
    const keyPath = `projects/demo/databases/(default)/documents/apiKeys/${hashKey(key.key)}`;
    // called below with its own `this`
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = Firestore.prototype.getAll;
    const read = jest.spyOn(Firestore.prototype, "getAll").mockImplementation(function (
      this: Firestore,
      ...refs
    ) {
      if ((refs as DocumentReference[]).some((ref) => ref.path === `projects/${projectId}`))
        return Promise.reject(new Error(`5 NOT_FOUND: no entity to update: ${keyPath}`));
      return original.apply(this, refs);
    });
    const { lines, restore } = captureLines();
    try {
      expect((await findings.get("/v1/project", key.key)).status).toBe(500);
    } finally {
      restore();
      read.mockRestore();
    }
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const failed = entries.filter((e) => e.event === "api.request_failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ severity: "ERROR", api: "findings", path: "/v1/project" });
    // The original failure's stack, not one made in logs.ts: Error Reporting groups by it.
    expect(failed[0].message).toMatch(/^api\.request_failed Error: 5 NOT_FOUND/);
    expect(failed[0].message).toContain("logHygiene.test.ts");
    expect(failed[0].message).toContain("apiKeys/<sha256>");
    for (const line of lines) expect(line).not.toMatch(SHA256);
  });

  it("a flood of refused requests from one address (401s, then the guard's 429s) logs O(1) lines", async () => {
    const address = randomAddress();
    const { lines, restore } = captureLines();
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 100; i++)
        statuses.push(
          (
            await findings.get("/v1/project", generateKey("findings"), {
              "X-Forwarded-For": address,
            })
          ).status,
        );
    } finally {
      restore();
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(50);
    const unattributed = lines.filter((l) => l.includes('"api.unattributed_request"'));
    // One budget per cause (the 401's and the 429's), whatever the number of requests.
    expect(unattributed.length).toBeLessThanOrEqual(2 * LINES_PER_WINDOW);
    expect(
      unattributed.filter((l) => (JSON.parse(l) as { status: number }).status === 429).length,
    ).toBeLessThanOrEqual(LINES_PER_WINDOW);
    for (const line of lines) expect(line).not.toMatch(SHA256);
  });
});
