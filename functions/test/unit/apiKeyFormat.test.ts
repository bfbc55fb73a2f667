import { crc32 } from "node:zlib";
import {
  checksumOf,
  composeKey,
  displayPrefix,
  generateKey,
  hashKey,
  parseKey,
} from "../../src/lib/apiKeyFormat";
import { toBase62 } from "../../src/lib/base62";

const RANDOM = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

describe("the key checksum", () => {
  it("is the IEEE CRC-32 (check value of 123456789: cbf43926) in base62", () => {
    expect(checksumOf("123456789")).toBe(toBase62(0xcbf43926, 6));
    expect(checksumOf("")).toBe("000000");
    expect(checksumOf(RANDOM)).toBe("1ggZdL");
  });
});

describe("toBase62", () => {
  it("writes digits, upper, then lower case, left-padded", () => {
    expect(toBase62(0, 6)).toBe("000000");
    expect(toBase62(61)).toBe("z");
    expect(toBase62(62)).toBe("10");
    expect(toBase62(0xffffffff, 6)).toBe("4gfFC3");
  });
  it("refuses negative and fractional numbers", () => {
    expect(() => toBase62(-1)).toThrow(RangeError);
    expect(() => toBase62(1.5)).toThrow(RangeError);
  });
});

describe("API key format", () => {
  it("composes prefix + 32 random + 6-character CRC-32 checksum", () => {
    const key = composeKey("findings", RANDOM);
    expect(key).toBe(`vfe_${RANDOM}${toBase62(crc32(RANDOM), 6)}`);
    expect(key).toHaveLength(4 + 32 + 6);
    expect(checksumOf(RANDOM)).toHaveLength(6);
    expect(composeKey("company", RANDOM).startsWith("csa_")).toBe(true);
  });

  it("parses well-formed keys to their API", () => {
    expect(parseKey(composeKey("findings", RANDOM))).toBe("findings");
    expect(parseKey(composeKey("company", RANDOM))).toBe("company");
  });

  it.each([
    ["wrong checksum", (k: string) => k.slice(0, -1) + (k.endsWith("0") ? "1" : "0")],
    ["changed random part", (k: string) => k.slice(0, 4) + "X" + k.slice(5)],
    ["unknown prefix", (k: string) => "abc_" + k.slice(4)],
    ["truncated", (k: string) => k.slice(0, -1)],
    ["extended", (k: string) => k + "0"],
    ["non-base62 character", (k: string) => k.slice(0, 10) + "-" + k.slice(11)],
    ["surrounding space", (k: string) => ` ${k}`],
  ])("rejects a key with %s", (_name, mutate) => {
    expect(parseKey(mutate(composeKey("findings", RANDOM)))).toBeNull();
  });

  it("generates distinct, valid keys", () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey("company")));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(parseKey(key)).toBe("company");
  });

  it("hashes to lowercase hex SHA-256 and keeps a 12-character display prefix", () => {
    expect(hashKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(displayPrefix(composeKey("findings", RANDOM))).toBe("vfe_01234567");
  });

  it("refuses to compose from a random part of the wrong shape", () => {
    expect(() => composeKey("findings", "short")).toThrow(RangeError);
  });
});
