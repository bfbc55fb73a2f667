import { createCompanyApp } from "../../src/company/app";
import { firestore } from "../../src/config/firebase";
import { randomId, seatsUsed, seedCompany, seedProvisioningKey } from "../support/builders";
import { client } from "../support/http";

/**
 * Issue 38, item 10: `Idempotency-Key` on the company API's writes, written as an HR script's
 * retries. The crash between a first try's commit and its stored answer:
 * provisioningCrash.test.ts ("with Idempotency-Key").
 */
const company = client(createCompanyApp());
const address = () => `${randomId("i")}@idem.example`;

async function provisioning() {
  const companyId = await seedCompany({ seatCapacity: 100, seatsUsed: 0 });
  return { companyId, key: await seedProvisioningKey(companyId) };
}

const write = (
  method: "post" | "patch" | "delete",
  path: string,
  key: string,
  idempotencyKey: string,
  body?: unknown,
) =>
  company.send(method, path, key, body, "application/json", { "Idempotency-Key": idempotencyKey });

const usersOf = async (companyId: string) =>
  (await firestore().collection("users").where("companyId", "==", companyId).get()).docs;

const requestEntries = async (companyId: string, method: string, path: string) =>
  (
    await firestore()
      .collection(`companies/${companyId}/auditLogs`)
      .where("action", "==", "api.request")
      .where("method", "==", method)
      .where("path", "==", path)
      .get()
  ).docs.map((d) => d.get("status") as number);

describe("Idempotency-Key on the company API's writes", () => {
  it("the same invitation again answers the first answer (201, same body and Location), marked replayed; each try counted and audited", async () => {
    const { companyId, key } = await provisioning();
    const idem = randomId("idem");
    const body = { email: address(), display_name: "Nina Holm" };
    const first = await write("post", "/v1/users", key, idem, body);
    expect(first.status).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await write("post", "/v1/users", key, idem, body);
    expect(again.status).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect((await usersOf(companyId)).map((d) => d.id)).toEqual([first.body.data.id]);
    expect(await seatsUsed(companyId)).toBe(1);
    expect(await requestEntries(companyId, "POST", "/v1/users")).toEqual([201, 201]);
    // Without the key, the same body is a new request: the address is taken.
    const unkeyed = await company.send("post", "/v1/users", key, body);
    expect([unkeyed.status, unkeyed.body.error.code]).toEqual([409, "conflict"]);
  });

  it("the same key with another body answers 422 idempotency_key_reused, and nothing runs", async () => {
    const { companyId, key } = await provisioning();
    const idem = randomId("idem");
    await write("post", "/v1/users", key, idem, { email: address(), display_name: "A" });
    const other = await write("post", "/v1/users", key, idem, {
      email: address(),
      display_name: "B",
    });
    expect([other.status, other.body.error.code]).toEqual([422, "idempotency_key_reused"]);
    const elsewhere = await write("post", "/v1/worked-hours", key, idem, {
      month: "2026-01",
      hours: 10,
    });
    expect(elsewhere.status).toBe(422);
    expect(await usersOf(companyId)).toHaveLength(1);
  });

  it("is scoped to the API key: another key's same Idempotency-Key is another request", async () => {
    const { companyId, key } = await provisioning();
    const otherKey = await seedProvisioningKey(companyId);
    const idem = randomId("idem");
    const mine = await write("post", "/v1/users", key, idem, {
      email: address(),
      display_name: "A",
    });
    const theirs = await write("post", "/v1/users", otherKey, idem, {
      email: address(),
      display_name: "B",
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it("two tries at once, 20 times: one runs, the other answers 409 idempotency_key_in_use or the replay; never two users, never a conflict", async () => {
    const { companyId, key } = await provisioning();
    const seen: string[] = [];
    for (let round = 0; round < 20; round++) {
      const idem = randomId("idem");
      const body = { email: address(), display_name: `Race ${round}` };
      const answers = await Promise.all([
        write("post", "/v1/users", key, idem, body),
        write("post", "/v1/users", key, idem, body),
      ]);
      const kinds = answers.map((r) =>
        r.status === 201
          ? r.headers["idempotent-replayed"] === "true"
            ? "replayed"
            : "ran"
          : `${r.status} ${r.body.error.code}`,
      );
      seen.push(...kinds);
      expect(kinds.filter((k) => k === "ran")).toHaveLength(1);
      for (const kind of kinds)
        expect(["ran", "replayed", "409 idempotency_key_in_use"]).toContain(kind);
      const busy = answers.find((r) => r.status === 409);
      if (busy) expect(Number(busy.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    expect(await usersOf(companyId)).toHaveLength(20);
    expect(await seatsUsed(companyId)).toBe(20);
    expect(seen.filter((k) => k === "ran")).toHaveLength(20);
  });

  it("a refusal is answered again as it was (409 conflict, replayed), a malformed key is 400", async () => {
    const { key } = await provisioning();
    const taken = address();
    await company.send("post", "/v1/users", key, { email: taken, display_name: "First" });
    const idem = randomId("idem");
    const body = { email: taken, display_name: "Second" };
    const first = await write("post", "/v1/users", key, idem, body);
    const again = await write("post", "/v1/users", key, idem, body);
    expect([first.status, first.body.error.code]).toEqual([409, "conflict"]);
    expect([again.status, again.body.error.code]).toEqual([409, "conflict"]);
    expect(again.body.error.message).toBe(first.body.error.message);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const bad = await write("post", "/v1/users", key, "a b", body);
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
  });

  it("PATCH, DELETE and worked hours replay their first answers", async () => {
    const { key } = await provisioning();
    const created = await company.send("post", "/v1/users", key, {
      email: address(),
      display_name: "Patched",
    });
    const path = `/v1/users/${created.body.data.id}`;
    for (const [method, target, body, status] of [
      ["patch", path, { active: false }, 200],
      ["post", "/v1/worked-hours", { month: "2026-02", hours: 1200 }, 201],
      ["delete", path, undefined, 204],
    ] as const) {
      const idem = randomId("idem");
      const first = await write(method, target, key, idem, body);
      const again = await write(method, target, key, idem, body);
      expect([first.status, again.status]).toEqual([status, status]);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(again.body).toEqual(first.body);
    }
  });
});
