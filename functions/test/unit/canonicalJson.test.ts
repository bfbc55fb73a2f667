import { canonicalJson } from "../../src/lib/canonicalJson";

describe("canonicalJson", () => {
  it("gives the same text whatever the order of keys, at any depth", () => {
    const a = { email: "a@x.example", profile: { b: 1, a: [{ y: 2, x: 1 }] }, name: "A" };
    const b = { name: "A", profile: { a: [{ x: 1, y: 2 }], b: 1 }, email: "a@x.example" };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe(
      '{"email":"a@x.example","name":"A","profile":{"a":[{"x":1,"y":2}],"b":1}}',
    );
  });

  it("keeps the order of arrays and tells different values apart", () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
    expect(canonicalJson(undefined)).toBe("null");
  });
});
