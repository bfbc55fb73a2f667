import { GeoPoint, Timestamp } from "firebase-admin/firestore";
import { decodeToken, encodeToken, keyIdOf, scopeDigest } from "../../src/lib/pageToken";
import { decodeCursor, encodeCursor } from "../../src/repos/cursorCodec";

const OLD = "old-secret-old-secret-old-secret-0001";
const NEW = "new-secret-new-secret-new-secret-0002";
const scope = scopeDigest({ endpoint: "findings", project: "p1" });

describe("page tokens", () => {
  const cursor = encodeCursor({
    value: new Timestamp(1767571200, 123456789),
    id: "hidden-finding-f1",
  });

  it("come back as they went in, however long the cursor", () => {
    expect(decodeToken([NEW], scope, encodeToken([NEW], scope, cursor))).toEqual({
      ok: true,
      cursor,
    });
    const long = encodeCursor({ value: "é".repeat(2000), id: "\u0001".repeat(1500) });
    const token = encodeToken([NEW], scope, long);
    expect(token.length).toBeLessThan(2_900);
    expect(decodeToken([NEW], scope, token)).toEqual({ ok: true, cursor: long });
  });

  it("reveal nothing of the row: no id or date in any encoding, and a fresh token each time", () => {
    const token = encodeToken([NEW], scope, cursor);
    const [kid, body] = token.split(".");
    expect(kid).toBe(keyIdOf(NEW));
    const bytes = Buffer.from(body, "base64url");
    const id = "hidden-finding-f1";
    const leaks = [
      id,
      Buffer.from(id).toString("base64url"),
      Buffer.from(id).toString("base64"),
      Buffer.from(id).toString("hex"),
      "1767571200",
      "123456789",
      "2026",
      scope,
      '{"s":',
      '"c":[',
    ];
    const readable = [token, bytes.toString("latin1"), bytes.toString("utf8")];
    // Also every base64 alignment of the bytes, so a token made of readable JSON would show up.
    for (const shift of [1, 2])
      readable.push(Buffer.from(body.slice(shift), "base64url").toString("latin1"));
    for (const text of readable) for (const leak of leaks) expect(text).not.toContain(leak);
    expect(token).not.toContain(NEW);
    expect(encodeToken([NEW], scope, cursor)).not.toBe(token);
  });

  it("refuse a change to any single character", () => {
    const token = encodeToken([NEW], scope, ["x"]);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < token.length; i++) {
      if (token[i] === ".") continue;
      for (const other of [
        alphabet[(alphabet.indexOf(token[i]) + 1) % 64],
        alphabet[(alphabet.indexOf(token[i]) + 33) % 64],
      ]) {
        const altered = `${token.slice(0, i)}${other}${token.slice(i + 1)}`;
        expect(decodeToken([NEW], scope, altered).ok).toBe(false);
      }
    }
    expect(decodeToken([NEW], scope, token.slice(0, -1)).ok).toBe(false);
    expect(decodeToken([NEW], scope, `${token}A`).ok).toBe(false);
  });

  it("are refused for another scope: other filters, endpoint or key", () => {
    const token = encodeToken([NEW], scope, cursor);
    for (const other of [
      { endpoint: "findings", project: "p2" },
      { endpoint: "comments", project: "p1" },
      { endpoint: "findings", project: "p1", status: "Open" },
    ]) {
      expect(decodeToken([NEW], scopeDigest(other), token)).toEqual({
        ok: false,
        reason: "other_query",
      });
    }
  });

  it("carry the secret's key id in clear: during a rotation, tokens of the previous secret are still accepted", () => {
    const inFlight = encodeToken([OLD], scope, [1]);
    expect(inFlight.split(".")[0]).toBe(keyIdOf(OLD));
    expect(decodeToken([NEW, OLD], scope, inFlight)).toEqual({ ok: true, cursor: [1] });
    const fresh = encodeToken([NEW, OLD], scope, [2]);
    expect(fresh.split(".")[0]).toBe(keyIdOf(NEW));
    expect(decodeToken([NEW, OLD], scope, fresh)).toEqual({ ok: true, cursor: [2] });
  });

  it("after the rotation, a token of the retired secret is refused as such", () => {
    expect(decodeToken([NEW], scope, encodeToken([OLD], scope, [1]))).toEqual({
      ok: false,
      reason: "retired_key",
    });
  });

  it("cannot be moved to another secret's key id", () => {
    const [, body] = encodeToken([OLD], scope, [1]).split(".");
    expect(decodeToken([NEW, OLD], scope, `${keyIdOf(NEW)}.${body}`)).toEqual({
      ok: false,
      reason: "tampered",
    });
  });

  it("refuse garbage", () => {
    const [kid, body] = encodeToken([NEW], scope, ["x"]).split(".");
    for (const junk of [
      "",
      "a",
      "a.b.c.d",
      kid,
      `${kid}.`,
      `${kid}.AAAA`,
      `${kid}.${body}.x`,
      "!!.??",
      `${kid}.${body}=`,
    ]) {
      expect(decodeToken([NEW], scope, junk).ok).toBe(false);
    }
  });
});

describe("page tokens of the HMAC-signed formats issued before v3", () => {
  const { createHmac } = jest.requireActual<typeof import("node:crypto")>("node:crypto");
  const signed = (secret: string, payload: object, kid?: string) => {
    const text = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return [
      ...(kid ? [kid] : []),
      text,
      createHmac("sha256", secret).update(text).digest("base64url"),
    ].join(".");
  };

  it("are no longer accepted (their scopes predate the kernel's), whatever secret signed them", () => {
    expect(
      decodeToken([NEW, OLD], scope, signed(OLD, { v: 2, s: scope, c: ["c"] }, keyIdOf(OLD))),
    ).toEqual({ ok: false, reason: "malformed" });
    expect(
      decodeToken([NEW, OLD], scope, signed(OLD, { v: 1, s: scope, c: [1, 0, "f1"] })),
    ).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("cursors in page tokens", () => {
  const back = (value: unknown, id = "f1") =>
    decodeCursor(JSON.parse(JSON.stringify(encodeCursor({ value, id }))));

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
    expect(
      (back(new Timestamp(1767571200, 123456789))!.value as Timestamp).isEqual(
        new Timestamp(1767571200, 123456789),
      ),
    ).toBe(true);
    expect(
      (back(new GeoPoint(59.9, 10.7))!.value as GeoPoint).isEqual(new GeoPoint(59.9, 10.7)),
    ).toBe(true);
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

  it("reject what they did not write", () => {
    for (const junk of [
      [["t", "x", 0], "ZjE"],
      [["t", 1, 1e9], "ZjE"],
      [["q", 1], "ZjE"],
      [["m", [[1, null]]], "ZjE"],
      [null, "not base64!"],
      [null, ""],
      [1.5, 0, "f"],
      [1767571200, 5, "f1"],
      "plain",
      {},
      [null],
    ]) {
      expect(decodeCursor(junk)).toBeNull();
    }
  });
});
