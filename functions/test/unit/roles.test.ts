import { mapRole } from "../../src/services/roles";

describe("mapRole (provisioningRoleMap)", () => {
  const map = { Inspector: "inspector", "Fleet Managers": "manager", Owners: "owner", Admins: "admin", KeyUsers: "keyUser", Odd: 7 };
  it.each([
    ["Inspector", "inspector"],
    [" fleet managers ", "manager"],
    ["Owners", "standard"],
    ["Admins", "standard"],
    ["KeyUsers", "standard"],
    ["Odd", "standard"],
    ["Unmapped", "standard"],
    ["Manager", "manager"],
    ["", "standard"],
    [null, "standard"],
  ])("maps %j to %s, app role names standing for themselves, never granting elevated roles", (value, role) => {
    expect(mapRole(map, value)).toBe(role);
  });
  it("without a map, gives standard except for an app role's own name", () => {
    expect(mapRole({}, "Fleet")).toBe("standard");
    expect(mapRole({}, "Inspector")).toBe("inspector");
    expect(mapRole({}, "owner")).toBe("standard");
  });
});
