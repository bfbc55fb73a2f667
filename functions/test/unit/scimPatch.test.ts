import { Timestamp } from "firebase-admin/firestore";
import type { StoredUser } from "../../src/repos/users";
import { applyPatch, stateFromBody, type State } from "../../src/scim/assign";
import { newUserOf, patchBetween, stateOf, toScimUser } from "../../src/scim/resource";
import { URN } from "../../src/scim/routeKit";

/** PATCH semantics (RFC 7644 §3.5.2) and the User resource mapping, without Firestore. */
const ENTERPRISE = URN.enterprise;
const patchOf = (...Operations: unknown[]) => ({ schemas: [URN.patchOp], Operations });

const stored: StoredUser = {
  id: "u1",
  companyId: "c1",
  email: "nina.holm@example.com",
  displayName: "Nina Holm",
  givenName: "Nina",
  familyName: "Holm",
  formattedName: null,
  scimProfile: {},
  scimGroups: [],
  groupRole: null,
  groupRoleDueAt: null,
  role: "standard",
  keyUser: false,
  status: "active",
  departmentId: "d1",
  externalId: "ext-1",
  userName: null,
  userNameKey: null,
  addressFromUserName: false,
  unmatchedDepartment: null,
  idpRole: null,
  idpRoleMappedTo: null,
  provisionedBy: "scim",
  createdAt: Timestamp.fromMillis(Date.UTC(2026, 0, 2)),
  updatedAt: Timestamp.fromMillis(Date.UTC(2026, 0, 3)),
  deactivatedAt: null,
  removedAt: null,
  signedInBefore: true,
};
const before = (): State => stateOf(stored, "Deck");
const scimError = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err as { status: number; scimType?: string; message: string };
  }
  throw new Error("expected a SCIM error");
};

describe("the User resource", () => {
  it("maps a stored user to core and enterprise attributes with meta", () => {
    expect(toScimUser(stored, "Deck", "https://x/scim/v2/Users/u1")).toEqual({
      schemas: [URN.user, ENTERPRISE],
      id: "u1",
      externalId: "ext-1",
      userName: "nina.holm@example.com",
      displayName: "Nina Holm",
      name: { givenName: "Nina", familyName: "Holm" },
      emails: [{ value: "nina.holm@example.com", type: "work", primary: true }],
      active: true,
      roles: [{ value: "standard", primary: true }],
      [ENTERPRISE]: { department: "Deck" },
      meta: {
        resourceType: "User",
        created: "2026-01-02T00:00:00.000Z",
        lastModified: "2026-01-03T00:00:00.000Z",
        location: "https://x/scim/v2/Users/u1",
      },
    });
    const bare = toScimUser({ ...stored, status: "deactivated", departmentId: null }, null, "l");
    expect(bare).toMatchObject({ active: false });
    expect(bare).not.toHaveProperty([ENTERPRISE]); // nothing in the extension: left out
  });

  it("reads an Entra ID POST: case-insensitive names, string booleans, enterprise department, roles", () => {
    const body = {
      schemas: [URN.user, ENTERPRISE],
      externalId: "0a1b",
      UserName: "Ola.Berg@Example.com",
      active: "True",
      emails: [{ primary: "True", type: "work", value: "ola.berg@example.com" }],
      name: { givenName: "Ola", familyName: "Berg" },
      roles: [{ primary: "True", type: "WindowsAzureActiveDirectoryRole", value: "Inspector" }],
      [ENTERPRISE]: { department: "Engine" },
      title: "Chief engineer", // kept as sent, with the emails as sent
      x509Certificates: [{ value: "MIIB" }], // not in our schema: ignored
    };
    expect(newUserOf(stateFromBody(body))).toEqual({
      email: "ola.berg@example.com",
      userName: "Ola.Berg@Example.com",
      displayName: "Ola Berg",
      department: "Engine",
      externalId: "0a1b",
      name: { givenName: "Ola", familyName: "Berg", formattedName: null },
      idpRole: "Inspector",
      active: true,
      profile: {
        emails: [{ primary: true, type: "work", value: "ola.berg@example.com" }],
        title: "Chief engineer",
      },
    });
  });

  it("takes the primary e-mail when userName is absent, and refuses a body without any", () => {
    expect(
      newUserOf(stateFromBody({ emails: [{ value: "a@b.co", primary: true }], active: false })),
    ).toMatchObject({ email: "a@b.co", displayName: "a@b.co", active: false });
    expect(scimError(() => newUserOf(stateFromBody({ displayName: "x" })))).toMatchObject({
      status: 400,
      scimType: "invalidValue",
    });
    // RFC 7643 requires only userName: a user without any address (no sign-in account yet).
    expect(newUserOf(stateFromBody({ userName: "not-an-address" }))).toMatchObject({
      email: null,
      userName: "not-an-address",
      displayName: "not-an-address",
      addressFromUserName: true,
    });
    expect(scimError(() => stateFromBody({ userName: "a@b.co", active: "maybe" }))).toMatchObject({
      scimType: "invalidValue",
      message: expect.stringContaining("active"),
    });
  });

  it("a PUT is a full replace: left-out attributes cleared, active kept, roles and department reported as omitted", () => {
    const after = stateFromBody({ userName: "nina.holm@example.com", name: { givenName: "Nina" } });
    expect(patchBetween(before(), after)).toEqual({
      name: { givenName: "Nina", familyName: null, formattedName: null },
      displayName: "Nina",
      externalId: null,
      omitted: { department: true, roles: true },
      // the emails it read are not sent again: cleared from the profile (the address stays)
      profile: {},
    });
    const sent = stateFromBody({
      userName: "nina.holm@example.com",
      roles: [],
      [ENTERPRISE]: { department: null },
    });
    expect(patchBetween(before(), sent)).toMatchObject({ department: null, idpRole: null });
  });

  it("a non-e-mail userName: the sign-in address comes from emails, which must be addresses", () => {
    expect(
      newUserOf(
        stateFromBody({
          userName: "jdoe",
          emails: [
            { value: "home@x.co", type: "home" },
            { value: "J.Doe@Example.com", type: "work" },
          ],
        }),
      ),
    ).toMatchObject({
      userName: "jdoe",
      email: "j.doe@example.com",
    });
    expect(newUserOf(stateFromBody({ userName: "jdoe" }))).toMatchObject({ email: null });
    expect(
      scimError(() =>
        newUserOf(stateFromBody({ userName: "jdoe", emails: [{ value: "jdoe", primary: true }] })),
      ),
    ).toMatchObject({ scimType: "invalidValue" });
    // Renaming jdoe keeps the address; so does renaming a userName equal to the address (Entra's
    // UPN rename), unless the address came from the userName and no emails were ever sent.
    expect(
      patchBetween(
        stateOf({ ...stored, userName: "jdoe" }, null),
        applyPatch(
          stateOf({ ...stored, userName: "jdoe" }, null),
          patchOf({ op: "replace", path: "userName", value: "jdoe2" }),
        ),
      ),
    ).toEqual({ userName: "jdoe2" });
    const rename = patchOf({ op: "replace", path: "userName", value: "N.Holm@Example.com" });
    const sent = new Set<string>();
    const renamed = applyPatch(before(), rename, sent);
    expect(patchBetween(before(), renamed, { sent })).toEqual({ userName: "N.Holm@Example.com" });
    expect(patchBetween(before(), renamed, { sent, addressFromUserName: true })).toEqual({
      userName: "N.Holm@Example.com",
      email: "n.holm@example.com",
      addressFromUserName: true,
    });
    // Emails sent (even the same address) end the link for good; the address follows them.
    const both = new Set<string>();
    const withEmails = applyPatch(
      before(),
      patchOf(
        { op: "replace", path: "userName", value: "N.Holm@Example.com" },
        { op: "replace", path: 'emails[type eq "work"].value', value: "nina.holm@example.com" },
      ),
      both,
    );
    expect(patchBetween(before(), withEmails, { sent: both, addressFromUserName: true })).toEqual({
      userName: "N.Holm@Example.com",
      addressFromUserName: false,
    });
    // A PUT without emails: the address follows the userName only while linked.
    const putSent = new Set<string>();
    const put = stateFromBody({ userName: "n2@example.com" }, putSent);
    expect(patchBetween(before(), put, { sent: putSent })).not.toHaveProperty("email");
    expect(patchBetween(before(), put, { sent: putSent, addressFromUserName: true })).toMatchObject(
      { email: "n2@example.com", addressFromUserName: true },
    );
    expect(newUserOf(stateFromBody({ userName: "Kari@Example.com" }))).toMatchObject({
      email: "kari@example.com",
      addressFromUserName: true,
    });
    expect(
      newUserOf(stateFromBody({ userName: "k@example.com", emails: [{ value: "k@example.com" }] })),
    ).not.toHaveProperty("addressFromUserName");
  });

  it("a role value equal to the user's app role changes nothing (a client re-sending what it read)", () => {
    const withRole = stateOf({ ...stored, role: "inspector" }, "Deck");
    expect(
      patchBetween(
        withRole,
        stateFromBody({
          userName: "nina.holm@example.com",
          roles: [{ value: "Inspector" }],
          [ENTERPRISE]: { department: "Deck" },
        }),
      ),
    ).not.toHaveProperty("idpRole");
  });
});

describe("applyPatch", () => {
  it("Entra ID: capitalised ops, string booleans, no-path values keyed by paths and URNs", () => {
    const after = applyPatch(
      before(),
      patchOf(
        { op: "Replace", path: "active", value: "False" },
        {
          op: "Add",
          value: {
            "name.givenName": "Nora",
            'emails[type eq "work"].value': "nora.holm@example.com",
            [`${ENTERPRISE}:department`]: "Bridge",
          },
        },
        { op: "Replace", value: { displayName: "Nora Holm" } },
      ),
    );
    // The work e-mail is the sign-in address: it moves.
    expect(after.emails).toEqual([{ value: "nora.holm@example.com", type: "work", primary: true }]);
    expect(patchBetween(before(), after)).toEqual({
      email: "nora.holm@example.com",
      active: false,
      name: { givenName: "Nora", familyName: "Holm", formattedName: null },
      displayName: "Nora Holm",
      department: "Bridge",
      profile: { emails: [{ value: "nora.holm@example.com", type: "work", primary: true }] },
    });
  });

  it("Okta: a path-less replace of active", () => {
    expect(
      patchBetween(
        before(),
        applyPatch(before(), patchOf({ op: "replace", value: { active: false } })),
      ),
    ).toEqual({ active: false });
  });

  it("the primary e-mail, not userName, is the sign-in address; the enterprise URN may hold an object", () => {
    const after = applyPatch(
      before(),
      patchOf({
        op: "replace",
        value: {
          userName: "a@b.co",
          emails: [{ value: "c@d.co", primary: true }],
          [ENTERPRISE]: { department: "Deck 2" },
        },
      }),
    );
    expect(patchBetween(before(), after)).toMatchObject({
      userName: "a@b.co",
      email: "c@d.co",
      department: "Deck 2",
    });
  });

  it("roles: add, remove by value, and remove all (RFC 7644 and Entra ID forms)", () => {
    const added = applyPatch(
      before(),
      patchOf({ op: "Add", path: "roles", value: [{ primary: "True", value: "Manager" }] }),
    );
    expect(added.roles).toEqual([
      { value: "standard", primary: false },
      { value: "Manager", primary: true },
    ]);
    expect(patchBetween(before(), added).idpRole).toBe("Manager");
    const removed = applyPatch(
      added,
      patchOf({ op: "Remove", path: "roles", value: [{ value: "manager" }] }),
    );
    expect(removed.roles).toEqual([{ value: "standard", primary: false }]);
    expect(
      applyPatch(added, patchOf({ op: "remove", path: 'roles[value eq "Manager"]' })).roles,
    ).toHaveLength(1);
    expect(
      patchBetween(before(), applyPatch(before(), patchOf({ op: "remove", path: "roles" })))
        .idpRole,
    ).toBeNull();
    // A value added without "primary" is the one that counts, not the stored app role beside it.
    expect(
      patchBetween(
        before(),
        applyPatch(
          before(),
          patchOf({ op: "add", path: "roles", value: [{ value: "Fleet Manager" }] }),
        ),
      ).idpRole,
    ).toBe("Fleet Manager");
  });

  it('Entra ID app roles: roles[primary eq "True"].value, replaced or added', () => {
    const replaced = applyPatch(
      before(),
      patchOf({ op: "Replace", path: 'roles[primary eq "True"].value', value: "Inspector" }),
    );
    expect(replaced.roles).toEqual([{ value: "Inspector", primary: true }]);
    expect(patchBetween(before(), replaced).idpRole).toBe("Inspector");
    const added = applyPatch(
      { ...before(), roles: [] },
      patchOf({ op: "Add", path: 'roles[primary eq "True"].value', value: "Manager" }),
    );
    expect(added.roles).toEqual([{ primary: true, value: "Manager" }]);
  });

  // RFC 7644 §3.5.2.1–3 examples, on the attributes this service has.
  it("RFC 7644 add of emails with a path-less value; replace through a value filter and sub-attribute", () => {
    const added = applyPatch(
      before(),
      patchOf({
        op: "add",
        value: { emails: [{ value: "babs@jensen.org", type: "home" }], nickname: "Babs" },
      }),
    );
    expect(added.emails).toEqual([
      { value: "nina.holm@example.com", type: "work", primary: true },
      { value: "babs@jensen.org", type: "home" },
    ]);
    // The primary address is unchanged: only the list as sent is kept (`nickname` names
    // `nickName`).
    expect(patchBetween(before(), added)).toEqual({
      profile: {
        emails: [
          { value: "nina.holm@example.com", type: "work", primary: true },
          { value: "babs@jensen.org", type: "home" },
        ],
        nickName: "Babs",
      },
    });
    const replaced = applyPatch(
      before(),
      patchOf({ op: "replace", path: 'emails[type eq "work"].value', value: "x@example.com" }),
    );
    expect(replaced.emails).toEqual([{ value: "x@example.com", type: "work", primary: true }]);
    expect(
      patchBetween(
        before(),
        applyPatch(replaced, patchOf({ op: "replace", path: "userName", value: "x@example.com" })),
      ),
    ).toEqual({
      email: "x@example.com",
      userName: "x@example.com",
      profile: { emails: [{ value: "x@example.com", type: "work", primary: true }] },
    });
    const removed = applyPatch(
      added,
      patchOf({ op: "remove", path: 'emails[type eq "home" and value ew "jensen.org"]' }),
    );
    expect(removed.emails).toHaveLength(1);
  });

  it("remove: single-valued attributes cleared; the department URN path; the name", () => {
    const after = applyPatch(
      before(),
      patchOf(
        { op: "remove", path: `${ENTERPRISE}:department` },
        { op: "remove", path: "externalId" },
        { op: "remove", path: "name.familyName" },
      ),
    );
    expect(patchBetween(before(), after)).toEqual({
      department: null,
      externalId: null,
      name: { givenName: "Nina", familyName: null, formattedName: null },
    });
  });

  it("add through a filter that matches nothing creates the value; replace there is noTarget", () => {
    const none = { ...before(), emails: [] };
    expect(
      applyPatch(
        none,
        patchOf({ op: "Add", path: 'emails[type eq "work"].value', value: "w@example.com" }),
      ).emails,
    ).toEqual([{ type: "work", value: "w@example.com" }]);
    expect(
      scimError(() =>
        applyPatch(
          before(),
          patchOf({ op: "replace", path: 'emails[type eq "home"].value', value: "h@x.co" }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      scimType: "noTarget",
    });
  });

  it.each([
    ["a read-only attribute", patchOf({ op: "replace", path: "id", value: "u2" }), "mutability"],
    ["remove without a path", patchOf({ op: "remove" }), "noTarget"],
    ["an unknown op", patchOf({ op: "move", path: "active", value: true }), "invalidSyntax"],
    ["no Operations", { schemas: [URN.patchOp] }, "invalidSyntax"],
    [
      "a wrong schema",
      { schemas: [URN.user], Operations: [{ op: "add", value: {} }] },
      "invalidSyntax",
    ],
    [
      "a malformed path",
      patchOf({ op: "replace", path: 'emails[type eq "work"', value: "x" }),
      "invalidPath",
    ],
    [
      "a sub-attribute of a simple one",
      patchOf({ op: "replace", path: "active.x", value: true }),
      "invalidPath",
    ],
    [
      "a path-less value that is not an object",
      patchOf({ op: "replace", value: "x" }),
      "invalidValue",
    ],
    [
      "a non-boolean active",
      patchOf({ op: "replace", path: "active", value: "yes" }),
      "invalidValue",
    ],
    ["a missing value", patchOf({ op: "add", path: "displayName" }), "invalidValue"],
  ])("refuses %s", (_what, body, scimType) => {
    expect(scimError(() => applyPatch(before(), body))).toMatchObject({ status: 400, scimType });
  });

  it("ignores attributes this service does not define, and changes nothing on failure", () => {
    const state = before();
    expect(
      applyPatch(
        state,
        patchOf(
          { op: "replace", path: "x509Certificates", value: "x" },
          { op: "add", path: 'ims[type eq "work"].value', value: "x" },
        ),
      ),
    ).toEqual(state);
    expect(() =>
      applyPatch(
        state,
        patchOf(
          { op: "replace", path: "active", value: false },
          { op: "replace", path: "id", value: "x" },
        ),
      ),
    ).toThrow();
    expect(state).toEqual(before());
  });

  it("refuses removing the e-mail address", () => {
    expect(
      scimError(() =>
        patchBetween(
          before(),
          applyPatch(
            before(),
            patchOf({ op: "remove", path: "userName" }, { op: "remove", path: "emails" }),
          ),
        ),
      ),
    ).toMatchObject({
      scimType: "invalidValue",
    });
  });
});
