import type { Request } from "express";
import { clientAddress, networkOf } from "../../src/http/refusalMemory";

const withForwarded = (header: string | undefined): Request =>
  ({
    get: (name: string) => (name.toLowerCase() === "x-forwarded-for" ? header : undefined),
    socket: { remoteAddress: "10.9.9.9" },
  }) as unknown as Request;

describe("the client's address", () => {
  it("is the last entry when the function is called directly (Google appends what it saw)", () => {
    expect(clientAddress(withForwarded("6.6.6.6, 203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientAddress(withForwarded("203.0.113.7"), 1)).toBe("203.0.113.7");
  });

  it("is the second entry from the end behind the HTTPS load balancer (`<client>, <balancer>`)", () => {
    expect(clientAddress(withForwarded("6.6.6.6, 203.0.113.7, 34.1.2.3"), 2)).toBe("203.0.113.7");
    // Fewer entries than hops: the leftmost, which only Google wrote.
    expect(clientAddress(withForwarded("203.0.113.7"), 2)).toBe("203.0.113.7");
  });

  it("falls back to the socket's address without the header", () => {
    expect(clientAddress(withForwarded(undefined), 1)).toBe("10.9.9.9");
  });

  it("counts an IPv6 client as its /64, and an IPv4-mapped one as its IPv4 address", () => {
    expect(networkOf("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:DB8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(networkOf("::1")).toBe("0:0:0:0::/64");
    expect(networkOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(networkOf("203.0.113.7")).toBe("203.0.113.7");
    expect(networkOf("not an address")).toBe("not an address");
  });
});
