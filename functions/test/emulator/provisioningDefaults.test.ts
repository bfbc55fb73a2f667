import { FieldValue, type Timestamp } from "firebase-admin/firestore";
import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seatsUsed, seedUser } from "../support/builders";
import { patchOp, scim, scimApi, scimCompany } from "../support/scim";

/**
 * Issue 24: provisioning is safe without the operator remembering a setting. Each test is the
 * attack.
 */
const COMMAND = "npm run keys -- provisioning --company <companyId> --domains";
const v1 = (key: string, body: unknown, method: "post" | "patch" = "post", path = "/v1/users") =>
  scimApi.send(method, path, key, body);
const accountOf = (email: string) =>
  auth()
    .getUserByEmail(email)
    .catch(() => null);

describe("without e-mail domains (the default) provisioning reaches nobody", () => {
  it("refuses every new user and address move with 403 naming the operator command; a leaver is still deactivated", async () => {
    const { companyId, key } = await scimCompany();
    await firestore()
      .doc(`companies/${companyId}`)
      .update({ provisioningDomains: FieldValue.delete() });
    const uid = randomId("u");
    await seedUser(uid, { companyId, role: "standard", status: "active", keyUser: false });
    const target = `${randomId("p")}@anywhere.example`;

    const viaV1 = await v1(key, { email: target, display_name: "Squatter" });
    expect(viaV1.status).toBe(403);
    expect(viaV1.body.error).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining(COMMAND),
    });
    const viaScim = await scim("post", "/Users", key, { userName: target, active: false });
    expect(viaScim.status).toBe(403);
    expect(viaScim.body).toEqual({
      schemas: [URN.error],
      status: "403",
      detail: expect.stringContaining(COMMAND),
    });
    const move = await scim(
      "patch",
      `/Users/${uid}`,
      key,
      patchOp({ op: "replace", value: { userName: target, emails: [{ value: target }] } }),
    );
    expect(move.status).toBe(403);
    expect(await accountOf(target)).toBeNull();
    expect((await firestore().doc(`users/${uid}`).get()).get("email")).not.toBe(target);

    const leaver = await scim(
      "patch",
      `/Users/${uid}`,
      key,
      patchOp({ op: "replace", value: { active: false } }),
    );
    expect(leaver.status).toBe(200);
    expect((await firestore().doc(`users/${uid}`).get()).get("status")).toBe("deactivated");
  });
});

describe("deactivated users are bounded by the seats", () => {
  it("30 x POST active:false with 14 seats free stops at the seat capacity with a clear 409", async () => {
    const domain = `${randomId("d")}.example`;
    const { companyId, key } = await scimCompany(
      { seatCapacity: 20, seatsUsed: 6 },
      { provisioningDomains: [domain] },
    );
    const statuses: number[] = [];
    let refusal: unknown;
    for (let i = 0; i < 30; i++) {
      const res = await scim("post", "/Users", key, { userName: `s${i}@${domain}`, active: false });
      statuses.push(res.status);
      if (res.status !== 201) refusal = res.body;
    }
    expect(statuses).toEqual([...Array(20).fill(201), ...Array(10).fill(409)]);
    expect(refusal).toEqual({
      schemas: [URN.error],
      status: "409",
      detail: expect.stringContaining("already holds 20 deactivated users"),
    });
    expect(await accountOf(`s25@${domain}`)).toBeNull();
    expect(await seatsUsed(companyId)).toBe(6);
    // An active invitation still takes one of the 14 free seats, and removing one frees room.
    expect((await scim("post", "/Users", key, { userName: `a@${domain}` })).status).toBe(201);
    const { body } = await scim("get", `/Users?filter=userName eq "s0@${domain}"`, key);
    expect((await scim("delete", `/Users/${body.Resources[0].id}`, key)).status).toBe(204);
    const again = await scim("post", "/Users", key, { userName: `s0@${domain}`, active: false });
    expect(again.status).toBe(201);
  });
});

describe("the address check answers nothing about other companies", () => {
  /** The answer without its request id. */
  const answer = (res: { status: number; body: { error?: object } }) => ({
    status: res.status,
    body: { ...res.body, error: { ...res.body.error, request_id: undefined } },
  });

  it("another company's owner answers exactly as an unused address of the same domain", async () => {
    const theirs = `${randomId("their")}.example`;
    const victim = await scimCompany(undefined, { provisioningDomains: [theirs] });
    const owner = `owner@${theirs}`;
    await seedUser(randomId("owner"), {
      companyId: victim.companyId,
      email: owner,
      role: "owner",
      status: "active",
    });
    const { key } = await scimCompany(undefined, {
      provisioningDomains: [`${randomId("own")}.example`],
    });
    const probe = await v1(key, { email: owner, display_name: "Probe" });
    const unused = await v1(key, { email: `nobody@${theirs}`, display_name: "Probe" });
    expect(probe.status).toBe(400);
    expect(answer(probe)).toEqual(answer(unused));
    const scimProbe = await scim("post", "/Users", key, { userName: owner, active: false });
    const scimUnused = await scim("post", "/Users", key, {
      userName: `x@${theirs}`,
      active: false,
    });
    expect(scimProbe.status).toBe(400);
    expect(scimProbe.body).toEqual(scimUnused.body);
  });

  it("an address of the company's own domain held elsewhere answers as one held by its own user", async () => {
    const own = `${randomId("own")}.example`;
    const { companyId, key } = await scimCompany(undefined, { provisioningDomains: [own] });
    const other = await scimCompany();
    const elsewhere = `contractor@${own}`;
    await seedUser(randomId("c"), { companyId: other.companyId, email: elsewhere });
    const mine = `staff@${own}`;
    await seedUser(randomId("m"), { companyId, email: mine });
    const [a, b] = [
      await v1(key, { email: elsewhere, display_name: "X" }),
      await v1(key, { email: mine, display_name: "X" }),
    ];
    expect(a.status).toBe(409);
    expect(answer(a)).toEqual(answer(b));
    const [c, d] = [
      await scim("post", "/Users", key, { userName: elsewhere }),
      await scim("post", "/Users", key, { userName: mine }),
    ];
    expect(c.status).toBe(409);
    expect(c.body).toEqual(d.body);
  });
});

describe("refused changes of the last owner are privileged audit entries", () => {
  const logs = (companyId: string) =>
    firestore().collection(`companies/${companyId}/auditLogs`).get();

  it("deactivating, removing or re-addressing the owner leaves one privileged entry each, committed with the request's", async () => {
    const domain = `${randomId("d")}.example`;
    const { companyId, key } = await scimCompany(undefined, { provisioningDomains: [domain] });
    const owner = randomId("owner");
    await seedUser(owner, { companyId, email: `boss@${domain}`, role: "owner", status: "active" });
    const attempts = [
      await v1(key, { active: false }, "patch", `/v1/users/${owner}`),
      await scimApi.send("delete", `/v1/users/${owner}`, key),
      await scim(
        "patch",
        `/Users/${owner}`,
        key,
        patchOp({ op: "replace", value: { active: false } }),
      ),
      await scim(
        "patch",
        `/Users/${owner}`,
        key,
        patchOp({ op: "replace", path: "emails", value: [{ value: `ceo@${domain}` }] }),
      ),
    ];
    // The SCIM address change: only that part is refused (nothing else asked), answered 200 with
    // the address kept.
    expect(attempts.map((r) => r.status)).toEqual([403, 403, 403, 200]);
    expect(attempts[3].body.emails).toEqual([
      { value: `boss@${domain}`, type: "work", primary: true },
    ]);
    const entries: Array<Record<string, unknown>> = (await logs(companyId)).docs.map((d) => ({
      id: d.id,
      ...d.data(),
    }));
    const refused = entries.filter(
      (e) => String(e.action).endsWith("_refused") && e.action !== "user.changes_refused",
    );
    expect(refused.map((e) => e.action).sort()).toEqual([
      "user.address_change_refused",
      "user.deactivation_refused",
      "user.deactivation_refused",
      "user.removal_refused",
    ]);
    for (const e of refused) {
      const status = e.action === "user.address_change_refused" ? 200 : 403;
      expect(e).toMatchObject({
        class: "privileged",
        status,
        target: { type: "user", id: owner },
        actor: { type: "api_key" },
      });
      const request = entries.find((r) => r.id === e.requestId);
      expect(request).toMatchObject({ action: "api.request", status });
      expect(e.id).toBe(`${String(e.requestId)}_refused`);
    }
    const counters = entries.filter((e) => e.action === "user.changes_refused");
    expect(counters.reduce((n, e) => n + Number(e.count), 0)).toBe(4);
    expect(counters.every((e) => e.class === "privileged")).toBe(true);
  });

  it("a loop of refusals leaves at most 10 entries per key and minute; the rest are counted", async () => {
    const { companyId, key } = await scimCompany();
    const owner = randomId("owner");
    await seedUser(owner, { companyId, role: "owner", status: "active" });
    for (let i = 0; i < 14; i++)
      expect((await scimApi.send("delete", `/v1/users/${owner}`, key)).status).toBe(403);
    const entries = (await logs(companyId)).docs.map((d) => d.data());
    const minuteOf = (e: Record<string, unknown>) =>
      Math.floor((e.at as Timestamp).toMillis() / 60_000);
    const counters = entries.filter((e) => e.action === "user.changes_refused");
    expect(counters.reduce((n, e) => n + Number(e.count), 0)).toBe(14);
    // Exactly the first 10 of each key's minute have entries of their own (14 requests span one or
    // two minutes).
    for (const counter of counters) {
      const own = entries.filter(
        (e) => e.action === "user.removal_refused" && minuteOf(e) === minuteOf(counter),
      );
      expect(own).toHaveLength(Math.min(10, Number(counter.count)));
      expect(counter).toMatchObject({ class: "privileged", target: { type: "user", id: owner } });
    }
  });
});
