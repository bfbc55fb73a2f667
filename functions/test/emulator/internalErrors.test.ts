import { Firestore, type DocumentReference } from "firebase-admin/firestore";
import { createFindingsApp } from "../../src/findings/app";
import { seedCompany, seedKey, seedProject } from "../support/builders";
import { auditEntriesFor, client } from "../support/http";
import { logger } from "../support/logger";

const findings = client(createFindingsApp());

/** The next read that includes the project's document fails as Firestore itself would. */
function failProjectRead(projectId: string, failure: Error) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with its own `this`
  const original = Firestore.prototype.getAll;
  return jest.spyOn(Firestore.prototype, "getAll").mockImplementation(function (
    this: Firestore,
    ...refs
  ) {
    if ((refs as DocumentReference[]).some((ref) => ref.path === `projects/${projectId}`))
      return Promise.reject(failure);
    return original.apply(this, refs);
  });
}

describe("failures that are not the caller's", () => {
  it("a failure of Firestore itself → 500 internal without internals, logged", async () => {
    const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId });
    const failure = Object.assign(new Error(`14 UNAVAILABLE: projects/${projectId} read failed`), {
      code: 14,
    });
    const read = failProjectRead(projectId, failure);
    const rid = `int-${companyId}`;
    const res = await findings.get("/v1/project", key.key, { "X-Request-Id": rid });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: {
        code: "internal",
        message: "An internal error occurred; retry with exponential backoff.",
        request_id: res.headers["x-request-id"],
      },
    });
    expect(res.text).not.toMatch(/projects\/|UNAVAILABLE|stack|at /);
    expect(error).toHaveBeenCalledWith(
      "api.request_failed",
      expect.any(Error),
      expect.objectContaining({ requestId: res.headers["x-request-id"], clientRequestId: rid }),
    );
    expect(await auditEntriesFor(companyId, rid)).toEqual([
      expect.objectContaining({ status: 500 }),
    ]);
    read.mockRestore();
    error.mockRestore();
  });

  it("is audited too when the instance already knows the key (key, counter, company and project read in one round)", async () => {
    const error = jest.spyOn(logger, "error").mockImplementation(() => undefined);
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId });
    expect((await findings.get("/v1/project", key.key)).status).toBe(200);
    const read = failProjectRead(
      projectId,
      Object.assign(new Error("14 UNAVAILABLE"), { code: 14 }),
    );
    try {
      const rid = `warm-${companyId}`;
      expect((await findings.get("/v1/project", key.key, { "X-Request-Id": rid })).status).toBe(
        500,
      );
      expect(await auditEntriesFor(companyId, rid)).toEqual([
        expect.objectContaining({ status: 500 }),
      ]);
    } finally {
      read.mockRestore();
      error.mockRestore();
    }
  });

  it("a body in an unsupported charset → 415 unsupported_media_type", async () => {
    const companyId = await seedCompany();
    const projectId = await seedProject(companyId);
    const key = await seedKey({ api: "findings", companyId, projectId });
    const res = await findings
      .raw()
      .post("/v1/project")
      .set("Authorization", `Bearer ${key.key}`)
      .set("Content-Type", "application/json; charset=latin1")
      .send('{"a":1}');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });
});
