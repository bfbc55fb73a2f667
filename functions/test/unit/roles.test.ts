import type { StoredUser } from "../../src/repos/users";
import { roleAfterMapChange } from "../../src/services/roleRematch";
import { groupAssignment, mapRole } from "../../src/services/users/rules";

describe("mapRole (provisioningRoleMap)", () => {
  const map = {
    Inspector: "inspector",
    "Fleet Managers": "manager",
    Owners: "owner",
    Admins: "admin",
    KeyUsers: "keyUser",
    Odd: 7,
  };
  it.each([
    ["Inspector", "inspector"],
    [" fleet managers ", "manager"],
    ["Owners", "standard"],
    ["Admins", "standard"],
    ["KeyUsers", "standard"],
    ["Odd", "standard"],
    ["Unmapped", "standard"],
    ["Manager", "standard"],
    ["inspector", "inspector"],
    ["", "standard"],
    [null, "standard"],
  ])("maps %j to %s: only the map grants a role, never an elevated one", (value, role) => {
    expect(mapRole(map, value)).toBe(role);
  });
  it("without a map, gives standard, also for a value equal to an app role's name", () => {
    expect(mapRole({}, "Fleet")).toBe("standard");
    expect(mapRole({}, "Inspector")).toBe("standard");
    expect(mapRole({}, "manager")).toBe("standard");
    expect(mapRole({}, "owner")).toBe("standard");
  });
});

describe("groupAssignment (provisioningGroupMap)", () => {
  const map = {
    "Deck crew": { role: "inspector", department: "Deck" },
    Officers: { role: "manager" },
    Owners: { role: "owner" },
    Galley: { department: " Galley " },
    Odd: "manager",
  };
  it.each([
    [[], { role: null, department: null }],
    [["deck crew"], { role: "inspector", department: "Deck" }],
    [["Officers", "Deck crew"], { role: "manager", department: "Deck" }],
    // The department of the first mapped group by name: "deck crew" < "galley".
    [["Galley", "Deck crew"], { role: "inspector", department: "Deck" }],
    [["Galley"], { role: null, department: "Galley" }],
    [["Owners"], { role: null, department: null }],
    [["Odd", "Unmapped"], { role: null, department: null }],
  ])("groups %j give %j: the highest grantable role, never an elevated one", (names, given) => {
    expect(groupAssignment(map, names)).toEqual(given);
  });
});

describe("roleAfterMapChange (the roleRematch trigger)", () => {
  const user = {
    idpRole: "Inspector",
    idpRoleMappedTo: "standard",
    role: "standard",
    keyUser: false,
    groupRole: null as string | null,
  } as unknown as StoredUser;
  const company = {
    provisioningRoleMap: { Inspector: "inspector" },
    provisioningRolesSource: "app" as const,
  };
  it("follows the map, except for a user whose role the group map gives", () => {
    expect(roleAfterMapChange(company, user)).toBe("inspector");
    expect(roleAfterMapChange(company, { ...user, groupRole: "manager" })).toBeNull();
  });
});
