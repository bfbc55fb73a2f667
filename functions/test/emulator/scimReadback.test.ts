import { firestore } from "../../src/config/firebase";
import { URN } from "../../src/scim/routeKit";
import { randomId } from "../support/builders";
import { patchOp, scim, scimCompany } from "../support/scim";

/**
 * What a provider reads back is what it sent. Entra ID and Okta GET the user and compare each
 * mapped attribute with the source; a difference is PATCHed (or PUT) again at every evaluation.
 */
const ENTERPRISE = URN.enterprise;
type Resource = Record<string, unknown>;

/**
 * A value at a mapping's target path as Entra ID reads it: `attr`, `attr.sub`, `attr[type eq
 * "x"].sub`, `urn:…:attr`.
 */
function readPath(resource: Resource, path: string): unknown {
  const inExtension = path.startsWith(`${ENTERPRISE}:`);
  const from = inExtension ? ((resource[ENTERPRISE] as Resource | undefined) ?? {}) : resource;
  const rest = inExtension ? path.slice(ENTERPRISE.length + 1) : path;
  const match = /^(\w+)(?:\[type eq "(\w+)"\])?(?:\.(\w+))?$/.exec(rest);
  if (!match) throw new Error(`unsupported path ${path}`);
  const [, attr, type, sub] = match;
  let value = from[attr];
  if (type !== undefined)
    value = (value as Resource[] | undefined)?.find((item) => item.type === type);
  return sub === undefined ? value : (value as Resource | undefined)?.[sub];
}

/**
 * Entra ID's default attribute mappings of a custom (non-gallery) app: target path → the value its
 * source holds.
 */
const entraSource = (upn: string, mail: string) => ({
  userName: upn,
  active: true,
  displayName: "Kari Nordmann",
  title: "Chief Officer",
  'emails[type eq "work"].value': mail,
  preferredLanguage: "nb-NO",
  "name.givenName": "Kari",
  "name.familyName": "Nordmann",
  "name.formatted": "Kari Nordmann",
  'addresses[type eq "work"].formatted': "Bergen office",
  'addresses[type eq "work"].streetAddress': "Bryggen 1",
  'addresses[type eq "work"].locality': "Bergen",
  'addresses[type eq "work"].region': "Vestland",
  'addresses[type eq "work"].postalCode': "5003",
  'addresses[type eq "work"].country': "NO",
  'phoneNumbers[type eq "work"].value': "+47 55 00 00 00",
  'phoneNumbers[type eq "mobile"].value': "+47 900 00 000",
  'phoneNumbers[type eq "fax"].value': "+47 55 00 00 01",
  externalId: "kari.nordmann",
  [`${ENTERPRISE}:employeeNumber`]: "70111",
  [`${ENTERPRISE}:department`]: "Deck",
});

/** Entra's POST of that source, as its provisioning logs show it. */
const entraPost = (source: ReturnType<typeof entraSource>) => ({
  schemas: [URN.user, ENTERPRISE],
  externalId: source.externalId,
  userName: source.userName,
  active: true,
  addresses: [
    {
      type: "work",
      formatted: "Bergen office",
      streetAddress: "Bryggen 1",
      locality: "Bergen",
      region: "Vestland",
      postalCode: "5003",
      country: "NO",
      primary: false,
    },
  ],
  displayName: "Kari Nordmann",
  preferredLanguage: "nb-NO",
  title: "Chief Officer",
  emails: [{ primary: true, type: "work", value: source['emails[type eq "work"].value'] }],
  name: { formatted: "Kari Nordmann", familyName: "Nordmann", givenName: "Kari" },
  phoneNumbers: [
    { primary: true, type: "work", value: "+47 55 00 00 00" },
    { type: "mobile", value: "+47 900 00 000" },
    { type: "fax", value: "+47 55 00 00 01" },
  ],
  [ENTERPRISE]: { employeeNumber: "70111", department: "Deck" },
});

const stored = async (id: string) => (await firestore().doc(`users/${id}`).get()).data() ?? {};
const updatesOf = async (companyId: string, id: string) =>
  (await firestore().collection(`companies/${companyId}/auditLogs`).get()).docs
    .map((d) => d.data())
    .filter((e) => e.action === "user.updated" && (e.target as Resource | undefined)?.id === id);

describe("SCIM values read back as sent", () => {
  it("Entra ID's default mappings read back at their paths, address case included, so a re-evaluation changes nothing", async () => {
    const { companyId, key } = await scimCompany();
    const tag = randomId("k");
    const source = entraSource(
      `Kari.Nordmann.${tag}@Contoso.example`,
      `Kari.N.${tag}@Contoso.example`,
    );
    const created = await scim("post", "/Users", key, entraPost(source));
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const read = await scim("get", `/Users/${id}`, key);
    expect(read.status).toBe(200);
    for (const [path, value] of Object.entries(source))
      expect([path, readPath(read.body as Resource, path)]).toEqual([path, value]);
    // The sign-in address and the lookups stay lower-cased; the address is found in any case.
    expect((await stored(id)).email).toBe(`kari.n.${tag}@contoso.example`);
    const found = await scim(
      "get",
      `/Users?filter=${encodeURIComponent(`emails[type eq "work"].value eq "${source['emails[type eq "work"].value']}"`)}`,
      key,
    );
    expect(found.body.Resources.map((r: Resource) => r.id)).toEqual([id]);

    // The next cycle sends what it compares equal to nothing; a provider that PATCHes anyway
    // changes nothing.
    const before = await stored(id);
    const again = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp(
        { op: "Replace", path: "title", value: "Chief Officer" },
        {
          op: "Replace",
          path: 'emails[type eq "work"].value',
          value: source['emails[type eq "work"].value'],
        },
        { op: "Replace", path: 'phoneNumbers[type eq "mobile"].value', value: "+47 900 00 000" },
        { op: "Replace", path: 'addresses[type eq "work"].locality', value: "Bergen" },
        { op: "Replace", path: `${ENTERPRISE}:employeeNumber`, value: "70111" },
      ),
    );
    expect(again.status).toBe(200);
    expect((await stored(id)).updatedAt).toEqual(before.updatedAt);
    expect(await updatesOf(companyId, id)).toHaveLength(0);

    // A real change is one PATCH, read back at its path, audited once.
    const changed = await scim(
      "patch",
      `/Users/${id}`,
      key,
      patchOp(
        { op: "Replace", path: "title", value: "Master" },
        { op: "Replace", path: 'phoneNumbers[type eq "mobile"].value', value: "+47 911 11 111" },
      ),
    );
    expect(changed.status).toBe(200);
    expect(readPath(changed.body as Resource, "title")).toBe("Master");
    expect(readPath(changed.body as Resource, 'phoneNumbers[type eq "mobile"].value')).toBe(
      "+47 911 11 111",
    );
    expect(readPath(changed.body as Resource, 'phoneNumbers[type eq "work"].value')).toBe(
      "+47 55 00 00 00",
    );
    expect(await updatesOf(companyId, id)).toHaveLength(1);
  });

  it("Entra ID's manager reference (the manager's id alone) is stored, read back and removed", async () => {
    const { key } = await scimCompany();
    const post = (name: string) =>
      scim("post", "/Users", key, {
        schemas: [URN.user],
        userName: `${randomId(name)}@contoso.example`,
      });
    const [boss, crew] = await Promise.all([post("boss"), post("crew")]);
    const path = `${ENTERPRISE}:manager`;
    const added = await scim(
      "patch",
      `/Users/${crew.body.id}`,
      key,
      patchOp({ op: "Add", path, value: boss.body.id }),
    );
    expect(added.status).toBe(200);
    expect(added.body[ENTERPRISE]).toEqual({ manager: { value: boss.body.id } });
    const read = await scim("get", `/Users/${crew.body.id}`, key);
    expect(read.body[ENTERPRISE]).toEqual({ manager: { value: boss.body.id } });
    const removed = await scim(
      "patch",
      `/Users/${crew.body.id}`,
      key,
      patchOp({ op: "Remove", path }),
    );
    expect(removed.status).toBe(200);
    expect(removed.body[ENTERPRISE]).toBeUndefined();
    expect((await stored(crew.body.id)).scimProfile).toEqual({ emails: expect.any(Array) });
  });

  it("Okta's PUT of its whole profile changes nothing when nothing changed, and clears what it leaves out", async () => {
    const { companyId, key } = await scimCompany();
    const email = `${randomId("Ola")}@Example.com`;
    const profile = {
      schemas: [URN.user, ENTERPRISE],
      userName: email,
      name: { givenName: "Ola", familyName: "Nordmann", middleName: "Jo", honorificPrefix: "Mr." },
      emails: [{ primary: true, value: email, type: "work" }],
      displayName: "Ola Nordmann",
      nickName: "Ola",
      title: "Bosun",
      userType: "Employee",
      locale: "nb-NO",
      timezone: "Europe/Oslo",
      preferredLanguage: "nb",
      profileUrl: "https://intranet.example.com/ola",
      phoneNumbers: [{ primary: true, value: "+47 922 22 222", type: "mobile" }],
      addresses: [{ primary: true, type: "work", locality: "Ålesund", country: "NO" }],
      active: true,
      [ENTERPRISE]: {
        employeeNumber: "E-42",
        costCenter: "CC-7",
        organization: "Fleet",
        division: "North",
        department: "Deck",
      },
    };
    const created = await scim("post", "/Users", key, { ...profile, externalId: "00u1ola" });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const { schemas, ...sent } = profile;
    expect(schemas).toBeDefined();
    const read = await scim("get", `/Users/${id}`, key);
    expect(read.body).toMatchObject({ ...sent, externalId: "00u1ola" });

    const before = await stored(id);
    const same = await scim("put", `/Users/${id}`, key, { ...profile, id });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject(sent);
    expect((await stored(id)).updatedAt).toEqual(before.updatedAt);
    expect(await updatesOf(companyId, id)).toHaveLength(0);

    // Okta's mapping of title removed: its next PUT leaves it out, and the title is gone (RFC 7644
    // §3.5.1).
    const withoutTitle: Resource = { ...profile, id };
    delete withoutTitle.title;
    const put = await scim("put", `/Users/${id}`, key, withoutTitle);
    expect(put.status).toBe(200);
    expect(put.body.title).toBeUndefined();
    expect(put.body.nickName).toBe("Ola");
    expect(await updatesOf(companyId, id)).toHaveLength(1);
  });

  it("an address the app changed since is returned alone, not the provider's stale list", async () => {
    const { key } = await scimCompany();
    const email = `${randomId("Per")}@Example.com`;
    const created = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName: email,
      emails: [{ value: email, type: "work", primary: true }],
    });
    expect(created.body.emails).toEqual([{ value: email, type: "work", primary: true }]);
    const moved = `${randomId("per")}@example.com`;
    await firestore().doc(`users/${created.body.id}`).update({ email: moved });
    const read = await scim("get", `/Users/${created.body.id}`, key);
    expect(read.body.emails).toEqual([{ value: moved, type: "work", primary: true }]);
  });

  it("refuses a profile over 16 KiB with SCIM 400 invalidValue and stores nothing", async () => {
    const { key } = await scimCompany();
    const userName = `${randomId("big")}@example.com`;
    const res = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName,
      addresses: Array.from({ length: 40 }, (_, i) => ({
        type: "other",
        formatted: `${i} ${"x".repeat(500)}`,
      })),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      schemas: [URN.error],
      status: "400",
      scimType: "invalidValue",
    });
    expect(res.body.detail).toMatch(/16384/);
    const found = await scim(
      "get",
      `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
      key,
    );
    expect(found.body.totalResults).toBe(0);
  });

  it("a stored profile of the wrong shape is left out of the answer, never an error", async () => {
    const { key } = await scimCompany();
    const created = await scim("post", "/Users", key, {
      schemas: [URN.user],
      userName: `${randomId("odd")}@example.com`,
      title: "Cook",
    });
    await firestore()
      .doc(`users/${created.body.id}`)
      .update({
        scimProfile: {
          title: 7,
          phoneNumbers: "garbage",
          nickName: "Cookie",
          name: [1],
          manager: 3,
        },
      });
    const read = await scim("get", `/Users/${created.body.id}`, key);
    expect(read.status).toBe(200);
    expect(read.body.title).toBeUndefined();
    expect(read.body.phoneNumbers).toBeUndefined();
    expect(read.body.nickName).toBe("Cookie");
  });
});
