import {
  periodYearAt,
  recentZonedMonths,
  reportingPeriod,
  zonedMonthStart,
} from "../../src/lib/period";

/**
 * A period starts at the first instant of its first local day. Zones below changed their clocks
 * at local midnight in some years (Asuncion on 1 October 2023: 00:00 → 01:00; Havana, Santiago,
 * Beirut, Cairo, Tehran, São Paulo similarly): the start must never read 23:00 the day before.
 * The check reads the clock with Intl on its own, independently of lib/period.ts.
 */
const ZONES = [
  "America/Asuncion",
  "America/Santiago",
  "America/Havana",
  "Asia/Beirut",
  "Africa/Cairo",
  "Asia/Tehran",
  "America/Sao_Paulo",
];

function reading(timeZone: string, at: number) {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, Number(x.value)]));
  return { year: p.year, month: p.month, day: p.day, minutes: p.hour * 60 + p.minute };
}

describe("zonedMonthStart", () => {
  it("America/Asuncion, October 2023 (clocks jump from 00:00 to 01:00): 01:00 local, 04:00Z, not 23:00 on 30 September", () => {
    expect(zonedMonthStart(2023, 9, "America/Asuncion").toISOString()).toBe(
      "2023-10-01T04:00:00.000Z",
    );
    // The month before starts at ordinary midnight (UTC−4 before the change): 04:00Z.
    expect(zonedMonthStart(2023, 8, "America/Asuncion").toISOString()).toBe(
      "2023-09-01T04:00:00.000Z",
    );
  });

  it.each(ZONES)(
    "%s: every month 1970–2037 starts on its first local day, and the second before is the day before",
    (zone) => {
      const wrong: string[] = [];
      for (let year = 1970; year <= 2037; year++) {
        for (let month = 0; month < 12; month++) {
          const start = zonedMonthStart(year, month, zone).getTime();
          const at = reading(zone, start);
          const before = reading(zone, start - 1000);
          const onFirst =
            at.year === year && at.month === month + 1 && at.day === 1 && at.minutes < 120;
          const dayBefore = !(
            before.year === year &&
            before.month === month + 1 &&
            before.day === 1
          );
          if (!onFirst || !dayBefore) wrong.push(`${year}-${month + 1}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it("an ordinary zone: local midnight exactly", () => {
    expect(zonedMonthStart(2025, 0, "Europe/Berlin").toISOString()).toBe(
      "2024-12-31T23:00:00.000Z",
    );
    expect(zonedMonthStart(2025, 3, "Europe/London").toISOString()).toBe(
      "2025-03-31T23:00:00.000Z",
    );
  });
});

describe("reporting periods and months in the company's calendar", () => {
  it("Asuncion's October 2023 financial year runs from the jump to the next 1 October's local midnight", () => {
    const p = reportingPeriod(2023, { timeZone: "America/Asuncion", firstMonth: 10 });
    expect(p.start.toISOString()).toBe("2023-10-01T04:00:00.000Z");
    expect(p.months[0]).toBe("2023-10");
    expect(p.months[11]).toBe("2024-09");
  });

  it("the year in progress is read on the local calendar (Kiritimati is UTC+14)", () => {
    const now = new Date("2025-12-31T10:30:00Z"); // 00:30 on 1 January 2026 in Kiritimati
    expect(periodYearAt(now, { timeZone: "Pacific/Kiritimati", firstMonth: 1 })).toBe(2026);
    expect(periodYearAt(now, { timeZone: "UTC", firstMonth: 1 })).toBe(2025);
  });

  it("recent months follow the zone: 00:30 on 1 March in Berlin is March there, February in UTC", () => {
    const now = new Date("2025-02-28T23:30:00Z");
    const berlin = recentZonedMonths(now, 2, "Europe/Berlin");
    expect(berlin.map((m) => m.key)).toEqual(["2025-02", "2025-03"]);
    expect(berlin[1].start.toISOString()).toBe("2025-02-28T23:00:00.000Z");
    expect(berlin[0].end).toEqual(berlin[1].start);
    expect(recentZonedMonths(now, 1, "UTC").map((m) => m.key)).toEqual(["2025-02"]);
  });
});
