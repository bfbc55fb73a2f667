import { Timestamp } from "firebase-admin/firestore";
import { createHash } from "node:crypto";
import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { pageTokenSecrets } from "../../src/config/params";
import { createFindingsApp } from "../../src/findings/app";
import { ERRORS, type ErrorCode } from "../../src/http/errors";
import { encodeToken, scopeDigest } from "../../src/lib/pageToken";
import { URN } from "../../src/scim/routeKit";
import { SCIM_TYPES, type ScimType } from "../../src/scim/scimErrors";
import { randomId, seedCompany, seedKey, seedProject, seedVessel } from "../support/builders";
import { client } from "../support/http";
import { expectSeatRetry, patchOp, scim, scimCompany } from "../support/scim";

/**
 * The error catalogue (docs/errors.md, generated from `ERRORS` and `SCIM_TYPES`) promises no
 * answer the server never gives: one request per row, through HTTP, that the server answers with
 * that row's status and code. A row without a request is listed with the reason; a row added to
 * either table without one fails the first test (and does not compile).
 */
const findings = client(createFindingsApp());
const company = client(createCompanyApp());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: { error?: { code?: string }; scimType?: string; status?: string; schemas?: string[] };
}
type Probe = () => Promise<Answer>;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const address = () => `${randomId("e")}@catalogue.example`;

async function provisioning(seats = { seatCapacity: 10, seatsUsed: 0 }) {
  const companyId = await seedCompany(seats);
  const { key, hash } = await seedKey({
    api: "company",
    companyId,
    scopes: ["read", "provisioning"],
    rateLimits: { perMinute: 10_000 },
  });
  return { companyId, key, hash };
}

/** The envelope's rows: a request each, or why none can be sent from outside. */
const ROWS: Record<ErrorCode, Probe | { unreachable: string }> = {
  invalid_request: async () => findings.get("/v1/findings?limit=zero", (await seedVessel()).key),
  unauthorized: () => findings.get("/v1/project"),
  forbidden: async () => {
    const companyId = await seedCompany({ apiAccess: { findingsExport: false, companyApi: true } });
    const projectId = await seedProject(companyId);
    const { key } = await seedKey({ api: "findings", companyId, projectId });
    return findings.get("/v1/project", key);
  },
  insufficient_scope: async () => {
    const { key } = await seedKey({ api: "company", companyId: await seedCompany() });
    return company.get("/v1/users", key);
  },
  not_found: async () => findings.get("/v1/findings/no-such-finding", (await seedVessel()).key),
  method_not_allowed: async () => findings.send("delete", "/v1/findings", (await seedVessel()).key),
  conflict: async () => {
    const { key } = await provisioning();
    const body = { email: address(), display_name: "Ada Berg" };
    expect((await company.send("post", "/v1/users", key, body)).status).toBe(201);
    return company.send("post", "/v1/users", key, body);
  },
  "seat-capacity-exhausted": async () => {
    const { key } = await provisioning({ seatCapacity: 1, seatsUsed: 1 });
    return company.send("post", "/v1/users", key, { email: address(), display_name: "Bo" });
  },
  idempotency_key_in_use: async () => {
    // The first try's record put back to "still running" (docs/firestore-data.md, "Idempotency
    // keys"): two tries at once only sometimes overlap (idempotency.test.ts races them).
    const { key, hash } = await provisioning();
    const idem = randomId("idem");
    const body = { email: address(), display_name: "Cy" };
    const send = () =>
      company.send("post", "/v1/users", key, body, "application/json", { "Idempotency-Key": idem });
    expect((await send()).status).toBe(201);
    await firestore()
      .doc(`idempotencyKeys/${sha256(`${hash}\u0000${idem}`)}`)
      .update({ answer: null, lockedUntil: Timestamp.fromMillis(Date.now() + 60_000) });
    return send();
  },
  resync_required: async () => {
    const { key, projectId } = await seedVessel();
    const old = Timestamp.fromMillis(Date.now() - 31 * 86_400_000);
    const scope = scopeDigest({ operation: "findingsDelta", tenant: projectId, delta: true });
    const token = encodeToken(pageTokenSecrets(), scope, [old.seconds, old.nanoseconds]);
    return findings.get(`/v1/findings/delta?delta_token=${token}`, key);
  },
  payload_too_large: async () =>
    company.send("post", "/v1/users", (await provisioning()).key, {
      email: address(),
      display_name: "x".repeat(70 * 1024),
    }),
  unsupported_media_type: async () =>
    company.send("post", "/v1/users", (await provisioning()).key, "email=a", "text/plain"),
  idempotency_key_reused: async () => {
    const { key } = await provisioning();
    const headers = { "Idempotency-Key": randomId("idem") };
    const send = (email: string) =>
      company.send("post", "/v1/users", key, { email, display_name: "Di" }, "application/json", {
        ...headers,
      });
    expect((await send(address())).status).toBe(201);
    return send(address());
  },
  rate_limited: async () => {
    const { key } = await seedVessel({ perMinute: 1 });
    expect((await findings.get("/v1/project", key)).status).toBe(200);
    return findings.get("/v1/project", key);
  },
  seats_unavailable: async () => {
    const { key } = await scimCompany({ seatCapacity: 1, seatsUsed: 1 });
    return scim("post", "/Users", key, { userName: address() });
  },
  internal: {
    unreachable:
      "a server-side failure: no request from outside causes one; internalErrors.test.ts " +
      "injects the failures and checks the answer",
  },
};

/** The SCIM rows: `scimType` values, each answered under /scim/v2. */
const SCIM_ROWS: Record<ScimType, Probe> = {
  uniqueness: async () => {
    const { key } = await scimCompany();
    const user = { userName: address() };
    expect((await scim("post", "/Users", key, user)).status).toBe(201);
    return scim("post", "/Users", key, user);
  },
  invalidFilter: async () =>
    scim("get", `/Users?filter=${encodeURIComponent('title co "M"')}`, (await scimCompany()).key),
  invalidValue: async () =>
    scim("post", "/Users", (await scimCompany()).key, { userName: address(), emails: {} }),
  invalidSyntax: async () => scim("post", "/Users", (await scimCompany()).key, '{"userName": '),
  mutability: async () => patched(patchOp({ op: "replace", path: "id", value: "x" })),
  noTarget: async () =>
    patched(patchOp({ op: "replace", path: 'emails[type eq "home"].value', value: "h@x.example" })),
  invalidPath: async () => patched(patchOp({ op: "replace", path: "nickName.given", value: "x" })),
  tooMany: async () => {
    const { key } = await scimCompany();
    const group = await scim("post", "/Groups", key, { displayName: "Everyone" });
    const members = Array.from({ length: 1_001 }, (_, i) => ({ value: `u${i}` }));
    return scim(
      "patch",
      `/Groups/${group.body.id as string}`,
      key,
      patchOp({ op: "add", path: "members", value: members }),
    );
  },
};

/** A PATCH of a user the company just provisioned. */
async function patched(body: unknown): Promise<Answer> {
  const { key } = await scimCompany();
  const created = await scim("post", "/Users", key, { userName: address() });
  return scim("patch", `/Users/${created.body.id as string}`, key, body);
}

const probes = Object.entries(ROWS).flatMap(([code, row]) =>
  typeof row === "function" ? [[code as ErrorCode, row] as const] : [],
);

describe("every row of the error catalogue is answered through HTTP", () => {
  it("has a request, or the reason there is none, for every row of ERRORS and SCIM_TYPES", () => {
    expect(Object.keys(ROWS).sort()).toEqual(Object.keys(ERRORS).sort());
    expect(Object.keys(SCIM_ROWS).sort()).toEqual(Object.keys(SCIM_TYPES).sort());
    expect(
      Object.keys(ROWS).filter((code) => typeof ROWS[code as ErrorCode] !== "function"),
    ).toEqual(["internal"]);
  });

  it.each(probes)("%s", async (code, probe) => {
    const res = await probe();
    // SCIM's own refusal is a SCIM error (no envelope code): the catalogue's status, Retry-After.
    if (code === "seats_unavailable") return expectSeatRetry(res, 1);
    expect([res.status, res.body.error?.code]).toEqual([ERRORS[code].status, code]);
  });

  it.each(Object.entries(SCIM_ROWS))("SCIM %s", async (scimType, probe) => {
    const res = await probe();
    const status = SCIM_TYPES[scimType as ScimType].status;
    expect([res.status, res.body]).toEqual([
      status,
      expect.objectContaining({ schemas: [URN.error], status: String(status), scimType }),
    ]);
  });
});
