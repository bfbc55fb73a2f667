import { groupChangeOf } from "../../src/scim/groupPatch";
import { ScimError } from "../../src/scim/scimErrors";

const body = (...Operations: unknown[]) => ({
  schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
  Operations,
});
const members = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ value: `u${from + i}` }));

describe("the member cap of a Group PATCH", () => {
  it("counts the ids of every operation: 600 added and 600 removed is refused as tooMany", () => {
    const over = body(
      { op: "add", path: "members", value: members(0, 600) },
      { op: "remove", path: "members", value: members(600, 600) },
    );
    expect(() => groupChangeOf(over)).toThrow(ScimError);
    try {
      groupChangeOf(over);
    } catch (err) {
      expect((err as ScimError).scimType).toBe("tooMany");
    }
  });

  it("accepts 1,000 ids over several operations", () => {
    const change = groupChangeOf(
      body(
        { op: "add", path: "members", value: members(0, 999) },
        { op: "remove", path: 'members[value eq "u5000"]' },
      ),
    );
    expect(change.members).toEqual({ add: members(0, 999).map((m) => m.value), remove: ["u5000"] });
  });
});
