import { DocumentReference, GeoPoint, Timestamp } from "firebase-admin/firestore";
import { decodeOrderValue, encodeOrderValue } from "../../src/lib/orderValue";
import { decodeToken, encodeToken, keyIdOf, scopeDigest } from "../../src/lib/pageToken";

const OLD = "old-secret-old-secret-old-secret-0001";
const NEW = "new-secret-new-secret-new-secret-0002";
const scope = scopeDigest({ endpoint: "findings", project: "p1" });

describe("page tokens", () => {
  it("carry the signing secret's key id, never the secret", () => {
    const token = encodeToken([NEW], scope, ["c"]);
    expect(token.split(".")[0]).toBe(keyIdOf(NEW));
    expect(token).not.toContain(NEW);
  });

  it("during a rotation, tokens signed with the previous secret are still accepted", () => {
    const inFlight = encodeToken([OLD], scope, [1]);
    expect(decodeToken([NEW, OLD], scope, inFlight)).toEqual({ ok: true, cursor: [1] });
    expect(decodeToken([NEW, OLD], scope, encodeToken([NEW, OLD], scope, [2]))).toEqual({ ok: true, cursor: [2] });
  });

  it("after the rotation, a token of the retired secret is refused as such", () => {
    expect(decodeToken([NEW], scope, encodeToken([OLD], scope, [1]))).toEqual({ ok: false, reason: "retired_key" });
  });

  it("tokens of the first format (no key id) are verified against every configured secret", () => {
    const { createHmac } = jest.requireActual<typeof import("node:crypto")>("node:crypto");
    const payload = Buffer.from(JSON.stringify({ v: 1, s: scope, c: [1, 0, "f1"] })).toString("base64url");
    const legacy = `${payload}.${createHmac("sha256", OLD).update(payload).digest("base64url")}`;
    expect(decodeToken([NEW, OLD], scope, legacy)).toEqual({ ok: true, cursor: [1, 0, "f1"] });
    expect(decodeToken([NEW], scope, legacy)).toEqual({ ok: false, reason: "tampered" });
  });

  it("refuses tampering, other scopes and garbage", () => {
    const token = encodeToken([NEW], scope, ["x"]);
    const [kid, payload, mac] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ v: 2, s: scope, c: ["y"] })).toString("base64url");
    expect(decodeToken([NEW], scope, `${kid}.${forged}.${mac}`)).toEqual({ ok: false, reason: "tampered" });
    expect(decodeToken([NEW], scopeDigest({ endpoint: "findings", project: "p2" }), token)).toEqual({ ok: false, reason: "other_query" });
    for (const junk of ["", "a", "a.b.c.d", `${kid}.${payload}`, "!!.??"]) expect(decodeToken([NEW], scope, junk).ok).toBe(false);
  });
});

describe("order values in cursors", () => {
  const reference = (path: string) => ({ path }) as unknown as DocumentReference;
  it.each([
    ["null", null],
    ["a boolean", true],
    ["a number", 1767571200000],
    ["a string", "2026-01-05"],
    ["a map", { _seconds: 1767571200, _nanoseconds: 0 }],
    ["a list", [1, "a", null]],
  ])("round-trips %s", (_name, value) => {
    expect(decodeOrderValue(JSON.parse(JSON.stringify(encodeOrderValue(value))), reference)).toEqual(value);
  });

  it("round-trips timestamps to the nanosecond, geo points, bytes and NaN", () => {
    const back = (v: unknown) => decodeOrderValue(JSON.parse(JSON.stringify(encodeOrderValue(v))), reference);
    expect((back(new Timestamp(1767571200, 123456789)) as Timestamp).isEqual(new Timestamp(1767571200, 123456789))).toBe(true);
    expect((back(new GeoPoint(59.9, 10.7)) as GeoPoint).isEqual(new GeoPoint(59.9, 10.7))).toBe(true);
    expect(back(Buffer.from([1, 2, 3]))).toEqual(Buffer.from([1, 2, 3]));
    expect(back(Number.NaN)).toBeNaN();
  });

  it("rejects what it did not write", () => {
    for (const junk of [["t", "x", 0], ["t", 1, 1e9], ["q", 1], "plain", ["m", [[1, null]]], ["a", [["z"]]], {}]) {
      expect(decodeOrderValue(junk, reference)).toBeUndefined();
    }
  });
});
