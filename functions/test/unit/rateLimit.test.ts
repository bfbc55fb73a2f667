import { policyHeader, remainingHeader } from "../../src/http/record";
import { decide, effectiveLimits, limitScopeOf } from "../../src/services/rateLimit";

const LIMITS = { perMinute: 60, perDay: 10_000 };
// 2026-03-01T10:15:20.250Z: 39.75 s left in the minute.
const NOW = Date.parse("2026-03-01T10:15:20.250Z");
const MINUTE = Math.floor(NOW / 60_000);
const DAY = Math.floor(NOW / 86_400_000);

describe("decide", () => {
  it("admits the first request and starts both windows", () => {
    const d = decide(undefined, NOW, LIMITS);
    expect(d.allowed).toBe(true);
    expect(d.next).toEqual({ minuteWindow: MINUTE, minuteCount: 1, dayWindow: DAY, dayCount: 1 });
    expect(d.windows[0]).toMatchObject({ name: "minute", remaining: 59, resetSeconds: 40 });
    expect(d.windows[1]).toMatchObject({ name: "day", remaining: 9_999 });
    expect(d.firstInMinute).toBe(true);
    expect(d.limitedBy).toBeNull();
  });

  it("refuses the 61st request of a minute with Retry-After until the minute ends", () => {
    const d = decide(
      { minuteWindow: MINUTE, minuteCount: 60, dayWindow: DAY, dayCount: 500 },
      NOW,
      LIMITS,
    );
    expect(d.allowed).toBe(false);
    expect(d.retryAfterSeconds).toBe(40);
    expect(d.limitedBy).toBe("minute");
    expect(d.next.minuteCount).toBe(60);
    expect(d.next.dayCount).toBe(500);
  });

  it("starts a new minute and a new day from zero", () => {
    const d = decide(
      { minuteWindow: MINUTE - 1, minuteCount: 60, dayWindow: DAY - 1, dayCount: 10_000 },
      NOW,
      LIMITS,
    );
    expect(d.allowed).toBe(true);
    expect(d.next).toEqual({ minuteWindow: MINUTE, minuteCount: 1, dayWindow: DAY, dayCount: 1 });
  });

  it("refuses on an exhausted day until UTC midnight, whatever the minute", () => {
    const d = decide(
      { minuteWindow: MINUTE - 5, minuteCount: 3, dayWindow: DAY, dayCount: 10_000 },
      NOW,
      LIMITS,
    );
    expect(d.allowed).toBe(false);
    expect(d.limitedBy).toBe("day");
    const midnight = (DAY + 1) * 86_400_000;
    expect(d.retryAfterSeconds).toBe(Math.ceil((midnight - NOW) / 1000));
  });

  it("never answers a Retry-After below one second", () => {
    const late = (MINUTE + 1) * 60_000 - 10;
    const d = decide(
      { minuteWindow: MINUTE, minuteCount: 60, dayWindow: DAY, dayCount: 60 },
      late,
      LIMITS,
    );
    expect(d.retryAfterSeconds).toBe(1);
  });

  it("is not the first in its minute once the minute has a request", () => {
    expect(
      decide({ minuteWindow: MINUTE, minuteCount: 1, dayWindow: DAY, dayCount: 1 }, NOW, LIMITS)
        .firstInMinute,
    ).toBe(false);
  });
});

describe("headers", () => {
  it("renders draft-11 RateLimit-Policy and the closer limit", () => {
    const d = decide(
      { minuteWindow: MINUTE, minuteCount: 10, dayWindow: DAY, dayCount: 10 },
      NOW,
      LIMITS,
    );
    expect(policyHeader(d)).toBe('"minute";q=60;w=60, "day";q=10000;w=86400');
    expect(remainingHeader(d)).toBe('"minute";r=49;t=40');
  });

  it("names the day when fewer requests are left in it", () => {
    const d = decide(
      { minuteWindow: MINUTE, minuteCount: 1, dayWindow: DAY, dayCount: 9_995 },
      NOW,
      LIMITS,
    );
    expect(remainingHeader(d)).toMatch(/^"day";r=4;t=\d+$/);
  });
});

describe("effectiveLimits", () => {
  const src = (perMinute: string, perDay: string) => ({ source: { perMinute, perDay } });
  it("takes the key's value over the company's over the default, per field", () => {
    expect(effectiveLimits(LIMITS, undefined, undefined, "read")).toEqual({
      ...LIMITS,
      ...src("default", "default"),
    });
    expect(effectiveLimits(LIMITS, { perMinute: 120 }, undefined, "read")).toEqual({
      perMinute: 120,
      perDay: 10_000,
      ...src("company", "default"),
    });
    expect(
      effectiveLimits(LIMITS, { perMinute: 120, perDay: 50_000 }, { perMinute: 5 }, "read"),
    ).toEqual({ perMinute: 5, perDay: 50_000, ...src("key", "company") });
  });

  it("applies the company's arrangement for the key's scope over the company-wide one", () => {
    const company = {
      perMinute: 120,
      perDay: 20_000,
      provisioning: { perMinute: 3_000 },
      read: { perDay: 30_000 },
    };
    expect(effectiveLimits(LIMITS, company, undefined, "provisioning")).toEqual({
      perMinute: 3_000,
      perDay: 20_000,
      ...src("company.provisioning", "company"),
    });
    expect(effectiveLimits(LIMITS, company, undefined, "read")).toEqual({
      perMinute: 120,
      perDay: 30_000,
      ...src("company", "company.read"),
    });
    expect(effectiveLimits(LIMITS, company, { perDay: 7 }, "provisioning")).toEqual({
      perMinute: 3_000,
      perDay: 7,
      ...src("company.provisioning", "key"),
    });
  });

  it("counts a key that may provision as provisioning, any other as read", () => {
    expect(limitScopeOf(["read", "provisioning"])).toBe("provisioning");
    expect(limitScopeOf(["provisioning"])).toBe("provisioning");
    expect(limitScopeOf(["read"])).toBe("read");
    expect(limitScopeOf([])).toBe("read");
  });
});
