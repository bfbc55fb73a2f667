import { mapRole } from "../../src/services/roles";

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
