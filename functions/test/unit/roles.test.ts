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
    ["", "standard"],
    [null, "standard"],
  ])("maps %j to %s, never granting elevated roles", (value, role) => {
    expect(mapRole(map, value)).toBe(role);
  });
  it("gives standard without a map", () => expect(mapRole({}, "Inspector")).toBe("standard"));
});
