import { auth, firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId, seedUser } from "../support/builders";
import { expectSeatRetry, patchOp, scim, scimCompany } from "../support/scim";

/** Issue 26: a UPN rename, seat exhaustion and an owner's address, as the providers send them. */
const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data();
const tokensValidAfter = async (uid: string) =>
  Date.parse((await auth().getUser(uid)).tokensValidAfterTime ?? "0");
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a UPN rename (Entra ID: UPN → userName, mail → emails, only what changed is sent)", () => {
  it("a PATCH of userName alone keeps the sign-in address and its sessions, also outside the domains", async () => {
    const domain = `${randomId("d")}.example`;
    const { key } = await scimCompany(undefined, { provisioningDomains: [domain] });
    // The usual tenant: UPN and mail are the same address when the user is created.
    const mail = `${randomId("kari")}@${domain}`;
    const upn = mail;
    const created = await scim("post", "/Users", key, {
      schemas: [URN.user, URN.enterprise],
      externalId: randomId("aad"),
      userName: upn,
      active: true,
      displayName: "Kari Nordmann",
      emails: [{ primary: true, type: "work", value: mail }],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const sessions = await tokensValidAfter(id);
    await pause(1100); // tokensValidAfterTime has a resolution of one second

    // The tenant moves to a new UPN suffix (not one of the company's domains): Entra sends userName
    // only.
    const renamed = `${randomId("upn")}@${randomId("tenant")}.onmicrosoft.example`;
    const res = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp({ op: "Replace", path: "userName", value: renamed }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userName: renamed, emails: [{ value: mail, primary: true }] });
    expect(await stored(id)).toMatchObject({ email: mail, userName: renamed });
    expect((await auth().getUser(id)).email).toBe(mail);
    expect(await tokensValidAfter(id)).toBe(sessions);

    // A rename back into the domains, equal to the address's form, leaves it alone as well.
    const again = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp({ op: "Replace", path: "userName", value: `${randomId("k")}@${domain}` }),
    );
    expect(again.status).toBe(200);
    expect((await auth().getUser(id)).email).toBe(mail);
  });

  it("a user whose address came from userName (no emails sent) moves it with a rename, until emails are sent", async () => {
    const domain = `${randomId("d")}.example`;
    const { key } = await scimCompany(undefined, { provisioningDomains: [domain] });
    const first = `${randomId("a")}@${domain}`;
    const created = await scim("post", "/Users", key, { userName: first });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(await stored(id)).toMatchObject({ email: first, addressFromUserName: true });

    const second = `${randomId("b")}@${domain}`;
    const moved = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp({ op: "replace", path: "userName", value: second }),
    );
    expect(moved.status).toBe(200);
    expect(moved.body.emails).toEqual([{ value: second, type: "work", primary: true }]);
    expect((await auth().getUser(id)).email).toBe(second);

    // The provider starts sending mail (here the same address): the address follows emails from now
    // on.
    const mailed = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp({ op: "replace", path: 'emails[type eq "work"].value', value: second }),
    );
    expect(mailed.status).toBe(200);
    expect(await stored(id)).toMatchObject({ email: second, addressFromUserName: false });
    const third = `${randomId("c")}@${domain}`;
    const renamed = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp({ op: "replace", path: "userName", value: third }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ userName: third, emails: [{ value: second }] });
    expect((await auth().getUser(id)).email).toBe(second);
  });
});

describe("no free seat: the providers retry instead of giving up", () => {
  it("Entra's POST and Okta's reactivation get 429 with Retry-After, and succeed once a seat is freed", async () => {
    const { companyId, key } = await scimCompany({ seatCapacity: 1, seatsUsed: 0 });
    const domain = `${randomId("d")}.example`;
    await firestore()
      .doc(`companies/${companyId}`)
      .update({ provisioningDomains: [domain] });
    const first = await scim("post", "/Users", key, { userName: `one@${domain}` });
    expect(first.status).toBe(201);
    const sleeper = await scim("post", "/Users", key, { userName: `two@${domain}`, active: false });
    expect(sleeper.status).toBe(201);

    // Entra ID: POST of a new assignee; Okta: PATCH active true of an existing one.
    const mail = `three@${domain}`;
    const refusals = [
      await scim("post", "/Users", key, {
        schemas: [URN.user],
        userName: mail,
        emails: [{ primary: true, type: "work", value: mail }],
        active: true,
      }),
      await scim(
        "patch",
        `/Users/${sleeper.body.id as string}`,
        key,
        patchOp({ op: "replace", value: { active: true } }),
      ),
    ];
    for (const res of refusals) expectSeatRetry(res, 1);
    expect(
      await auth()
        .getUserByEmail(mail)
        .catch(() => null),
    ).toBeNull();

    // A seat is freed; the provider's retry of the same requests succeeds.
    await scim("delete", `/Users/${first.body.id as string}`, key);
    const retried = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName: mail,
      emails: [{ primary: true, type: "work", value: mail }],
      active: true,
    });
    expect(retried.status).toBe(201);
  });
});

describe("an owner's address in a PATCH: only that part is refused", () => {
  it("Entra's PATCH of mail and displayName for the owner applies the name, keeps the address, answers 200 and audits the refusal, at every evaluation", async () => {
    const domain = `${randomId("d")}.example`;
    const { companyId, key } = await scimCompany(undefined, { provisioningDomains: [domain] });
    const owner = randomId("owner");
    const boss = `boss@${domain}`;
    await seedUser(owner, { companyId, email: boss, role: "owner", status: "active" });
    await auth().createUser({ uid: owner, email: boss });
    const body = patchOp(
      { op: "Replace", path: 'emails[type eq "work"].value', value: `ceo@${domain}` },
      { op: "Replace", path: "displayName", value: "Bo Ss" },
      { op: "Replace", path: `${URN.enterprise}:department`, value: "Deck" },
    );
    for (let evaluation = 1; evaluation <= 2; evaluation++) {
      const res = await scim("patch", `/Users/${owner}`, key, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        displayName: "Bo Ss",
        emails: [{ value: boss, primary: true }],
        [URN.enterprise]: { department: "Deck" },
      });
    }
    expect(await stored(owner)).toMatchObject({
      email: boss,
      displayName: "Bo Ss",
      departmentId: "dep-deck",
    });
    expect((await auth().getUser(owner)).email).toBe(boss);
    const entries = (await firestore().collection(`companies/${companyId}/auditLogs`).get()).docs
      .map((d) => d.data())
      .filter((e) => e.action === "user.address_change_refused");
    expect(entries).toHaveLength(2);
    for (const e of entries)
      expect(e).toMatchObject({
        class: "privileged",
        status: 200,
        target: { type: "user", id: owner },
      });
  });
});

describe("a POST or PUT body against the served schema", () => {
  it("schemas not an array of strings is invalidSyntax, name not an object invalidValue; null is unassigned", async () => {
    const { companyId, key } = await scimCompany();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ schemas: "notarray" }, "invalidSyntax"],
      [{ schemas: [1, null] }, "invalidSyntax"],
      [{ name: "Kari" }, "invalidValue"],
      [{ active: "maybe" }, "invalidValue"],
    ];
    for (const [body, scimType] of refusals) {
      const res = await scim("post", "/Users", key, {
        userName: `${randomId("r")}@x.example`,
        ...body,
      });
      expect([res.status, res.body.scimType]).toEqual([400, scimType]);
    }
    const roster = await firestore().collection("users").where("companyId", "==", companyId).get();
    expect(roster.size).toBe(0);
    const userName = `${randomId("n")}@x.example`;
    const res = await scim("post", "/Users", key, {
      userName,
      name: null,
      active: null,
      externalId: null,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userName, active: true });
    expect(res.body.externalId).toBeUndefined();
  });
});
