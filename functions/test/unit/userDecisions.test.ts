import { Timestamp } from "firebase-admin/firestore";
import { usersAnswer, usersApiError } from "../../src/http/usersErrors";
import type { StoredUser } from "../../src/repos/users";
import {
  assertAddressFree,
  assertOtherActiveOwner,
  assertSeatFree,
  assertUserNameFree,
  planRemoval,
  planSignIn,
  planUpdate,
  seatsFrom,
  type ResolvedPatch,
} from "../../src/services/users/decisions";
import { UsersError } from "../../src/services/users/userRefusals";

/** The users service's decisions (seats, uniqueness, last owner, what a change writes), without Firestore. */
const now = Timestamp.fromMillis(Date.UTC(2026, 10, 23, 12));

const user = (fields: Partial<StoredUser> = {}): StoredUser => ({
  id: "u1",
  companyId: "c1",
  email: "nina@example.com",
  displayName: "Nina",
  givenName: null,
  familyName: null,
  formattedName: null,
  scimProfile: {},
  scimGroups: [],
  groupRole: null,
  groupRoleDueAt: null,
  role: "standard",
  keyUser: false,
  status: "active",
  departmentId: null,
  externalId: null,
  userName: null,
  userNameKey: "nina@example.com",
  addressFromUserName: false,
  unmatchedDepartment: null,
  idpRole: null,
  idpRoleMappedTo: null,
  provisionedBy: "scim",
  createdAt: Timestamp.fromMillis(Date.UTC(2026, 0, 2)),
  updatedAt: null,
  deactivatedAt: null,
  removedAt: null,
  signedInBefore: false,
  ...fields,
});
const patch = (fields: Partial<ResolvedPatch> = {}): ResolvedPatch => ({
  department: {},
  ...fields,
});
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof UsersError ? err.code : err;
  }
  return "none";
};

describe("seats", () => {
  it("reads capacity and counter; a missing capacity is none; a counter that is unreadable or would go negative is recounted", () => {
    expect(seatsFrom({ seatCapacity: 5.7, seatsUsed: 2 })).toEqual({ capacity: 5, used: 2 });
    expect(seatsFrom({ seatCapacity: null, seatsUsed: 0 })).toEqual({ capacity: 0, used: 0 });
    expect(seatsFrom({ seatCapacity: -1, seatsUsed: 0 })).toEqual({ capacity: 0, used: 0 });
    expect(seatsFrom({ seatCapacity: 5, seatsUsed: null }).used).toBeNull();
    expect(seatsFrom({ seatCapacity: 5, seatsUsed: 1.5 }).used).toBeNull();
    expect(seatsFrom({ seatCapacity: 5, seatsUsed: 0 }, -1).used).toBeNull();
    expect(seatsFrom({ seatCapacity: 5, seatsUsed: 1 }, -1).used).toBe(1);
  });

  it("refuses a seat when all are taken, naming capacity and use", () => {
    expect(refusal(() => assertSeatFree({ capacity: 2, used: 1 }))).toBe("none");
    expect(refusal(() => assertSeatFree({ capacity: 2, used: 2 }))).toBe("seats");
    expect(refusal(() => assertSeatFree({ capacity: 0, used: 0 }))).toBe("seats");
  });
});

describe("uniqueness", () => {
  it("an address is held by any user not removed but the one being changed", () => {
    expect(refusal(() => assertAddressFree([user()], "u1"))).toBe("none");
    expect(refusal(() => assertAddressFree([user({ removedAt: now })], "u2"))).toBe("none");
    expect(refusal(() => assertAddressFree([user({ companyId: "other" })], "u2"))).toBe("conflict");
    expect(refusal(() => assertAddressFree([user()]))).toBe("conflict");
  });

  it("a userName is held by the company's users with that key, and by its users from before userNameKey named by their address", () => {
    expect(refusal(() => assertUserNameFree("c1", "u2", [user()], []))).toBe("username");
    expect(refusal(() => assertUserNameFree("c1", "u2", [user({ removedAt: now })], []))).toBe(
      "none",
    );
    expect(refusal(() => assertUserNameFree("c1", "u2", [], [user({ userNameKey: null })]))).toBe(
      "username",
    );
    expect(
      refusal(() =>
        assertUserNameFree("c1", "u2", [], [user({ userNameKey: null, companyId: "other" })]),
      ),
    ).toBe("none");
    expect(refusal(() => assertUserNameFree("c1", "u2", [], [user({ userNameKey: "jdoe" })]))).toBe(
      "none",
    );
  });

  it("the last active owner is refused; another active owner lets them go", () => {
    expect(refusal(() => assertOtherActiveOwner([user({ role: "owner" })], "u1"))).toBe(
      "protected",
    );
    expect(
      refusal(() =>
        assertOtherActiveOwner([user({ role: "owner" }), user({ id: "u2", role: "owner" })], "u1"),
      ),
    ).toBe("none");
  });
});

describe("what a change writes", () => {
  it("deactivation frees a seat, remembers a sign-in, and needs another owner for a protected user", () => {
    expect(planUpdate(user(), patch({ active: false }), now)).toEqual({
      update: { status: "deactivated", deactivatedAt: now, signedInBefore: true },
      seats: -1,
      action: "user.deactivated",
      needsOtherOwner: false,
    });
    expect(
      planUpdate(user({ keyUser: true, status: "invited" }), patch({ active: false }), now),
    ).toMatchObject({ update: { status: "deactivated" }, seats: -1, needsOtherOwner: true });
    expect(planUpdate(user({ status: "deactivated" }), patch({ active: false }), now)).toBeNull();
  });

  it("reactivation takes a seat and returns to active only after a sign-in", () => {
    expect(planUpdate(user({ status: "deactivated" }), patch({ active: true }), now)).toMatchObject(
      { update: { status: "invited", deactivatedAt: null }, seats: 1, action: "user.reactivated" },
    );
    expect(
      planUpdate(
        user({ status: "deactivated", signedInBefore: true }),
        patch({ active: true }),
        now,
      )?.update.status,
    ).toBe("active");
  });

  it("an address move keeps a legacy user's name; a protected user's address is refused; their role is not applied", () => {
    expect(
      planUpdate(user({ userNameKey: null }), patch({ email: "new@example.com" }), now)?.update,
    ).toEqual({
      email: "new@example.com",
      userName: "nina@example.com",
      userNameKey: "nina@example.com",
    });
    expect(
      refusal(() => planUpdate(user({ role: "owner" }), patch({ email: "new@example.com" }), now)),
    ).toBe("protected");
    const manager = { role: "manager", idpRole: "Fleet Manager" };
    expect(planUpdate(user({ keyUser: true }), patch({ role: manager }), now)).toBeNull();
    expect(planUpdate(user(), patch({ role: manager, userName: "JDoe" }), now)?.update).toEqual({
      role: "manager",
      idpRole: "Fleet Manager",
      idpRoleMappedTo: "manager",
      userName: "JDoe",
      userNameKey: "jdoe",
    });
    // The provider's value is recorded also when the role it maps to is the user's already.
    expect(
      planUpdate(user(), patch({ role: { role: "standard", idpRole: "Crew" } }), now)?.update,
    ).toEqual({ idpRole: "Crew", idpRoleMappedTo: "standard" });
  });

  it("removal deactivates if needed and takes the user off the roster", () => {
    expect(planRemoval(user(), now)).toEqual({
      update: { removal: true, status: "deactivated", deactivatedAt: now },
      seats: -1,
      action: "user.removed",
      needsOtherOwner: false,
    });
    expect(planRemoval(user({ role: "owner", status: "deactivated" }), now)).toMatchObject({
      update: { removal: true, status: "deactivated" },
      seats: 0,
      needsOtherOwner: false,
    });
  });

  it("a sign-in: refused when deactivated or removed; invited becomes active", () => {
    expect(planSignIn(user({ status: "deactivated" })).outcome).toBe("refused");
    expect(planSignIn(user({ removedAt: now })).outcome).toBe("refused");
    expect(planSignIn(user({ status: "invited" }))).toEqual({
      outcome: "allowed",
      update: { status: "active", signedInBefore: true },
      touch: true,
    });
    expect(planSignIn(user({ signedInBefore: true }))).toEqual({ outcome: "allowed" });
  });
});

describe("one table from a users error to its answers", () => {
  it.each([
    ["conflict", 409, "uniqueness"],
    ["username", 409, "uniqueness"],
    ["domain", 400, "invalidValue"],
    ["seats", 409, undefined],
    ["not_found", 404, undefined],
    ["unknown_department", 400, "invalidValue"],
    ["protected", 403, undefined],
  ] as const)("%s: HTTP %i, scimType %s", (code, status, scimType) => {
    const err = new UsersError(
      code,
      "Refused.",
      code === "seats" ? { capacity: 3, used: 3 } : undefined,
    );
    expect(usersApiError(err).status).toBe(status);
    expect(usersAnswer(err).scimType).toBe(scimType);
  });

  it("/v1 names the body parameter and gives the seat figures", () => {
    expect(usersApiError(new UsersError("domain", "Outside.")).message).toBe(
      'Invalid body parameter "email": Outside.',
    );
    expect(
      usersApiError(new UsersError("seats", "Full.", { capacity: 3, used: 3 })).details,
    ).toEqual({ seat_capacity: 3, seats_used: 3 });
  });
});
