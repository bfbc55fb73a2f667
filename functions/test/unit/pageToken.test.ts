import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { decodeCursor, encodeCursor } from "../../src/repos/cursorCodec";
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

describe("cursors in page tokens", () => {
  const back = (value: unknown, id = "f1") => decodeCursor(JSON.parse(JSON.stringify(encodeCursor({ value, id }))));

  it.each([
    ["null", null],
    ["a boolean", true],
    ["a number", 1767571200000],
    ["a string", "2026-01-05"],
    ["a map", { _seconds: 1767571200, _nanoseconds: 0 }],
    ["a list", [1, "a", null]],
  ])("carry %s exactly", (_name, value) => {
    expect(back(value)).toEqual({ value, id: "f1" });
  });

  it("carry timestamps to the nanosecond, geo points, bytes and NaN", () => {
    expect((back(new Timestamp(1767571200, 123456789))!.value as Timestamp).isEqual(new Timestamp(1767571200, 123456789))).toBe(true);
    expect((back(new GeoPoint(59.9, 10.7))!.value as GeoPoint).isEqual(new GeoPoint(59.9, 10.7))).toBe(true);
    expect(back(Buffer.from([1, 2, 3]))!.value).toEqual(Buffer.from([1, 2, 3]));
    expect(back(Number.NaN)!.value).toBeNaN();
  });

  it("carry any id: 1,500 bytes of control characters in at most 2,048 characters", () => {
    const id = "\u0001".repeat(1500);
    const encoded = encodeCursor({ value: null, id }) as [unknown, string];
    expect(encoded[1].length).toBeLessThanOrEqual(2048);
    expect(decodeCursor(encoded)).toEqual({ value: null, id });
  });

  it("resume from the document itself when the stored value is too long to carry", () => {
    const encoded = encodeCursor({ value: "x".repeat(20_000), id: "f1" });
    expect(JSON.stringify(encoded).length).toBeLessThan(100);
    expect(decodeCursor(encoded)).toEqual({ value: undefined, id: "f1", bySnapshot: true });
  });

  it("accept cursors of the first token format", () => {
    expect(decodeCursor([1767571200, 5, "f1"])).toEqual({ value: new Timestamp(1767571200, 5), id: "f1" });
    expect(decodeCursor([null, null, "f0"])).toEqual({ value: null, id: "f0" });
  });

  it("reject what they did not write", () => {
    for (const junk of [[["t", "x", 0], "ZjE"], [["t", 1, 1e9], "ZjE"], [["q", 1], "ZjE"], [["m", [[1, null]]], "ZjE"], [null, "not base64!"], [null, ""], [1.5, 0, "f"], "plain", {}, [null]]) {
      expect(decodeCursor(junk)).toBeNull();
    }
  });
});
